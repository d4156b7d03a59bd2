// The mails of a password sign-up (membership.use-case.ts): the sign-up link (issueSignupLink of
// email-links.use-case.ts) or, when the address has an account already, a note saying so. Both
// answer the same 202, so only the inbox's owner learns which one it was.
import {
  issueSignupLink,
  linkMail,
  PRODUCT_NAME,
  type EmailLinkDeps,
  type QueuedMail,
} from './email-links.use-case.ts';
import type { SignUpMail } from './membership.use-case.ts';

/** "You already have an account": sign in, or reset the password. Never says more. */
export function alreadyRegisteredMessage(input: {
  email: string;
  /** The district that owns the address's domain, if any. */
  districtName?: string;
  publicUrl: string;
}): QueuedMail {
  const base = input.publicUrl.replace(/\/+$/, '');
  return linkMail({
    to: input.email,
    subject: `You already have a ${PRODUCT_NAME} account`,
    greeting: 'Hello,',
    paragraphs: [
      `Someone (hopefully you) tried to create a ${PRODUCT_NAME} account for ${input.email}${input.districtName ? ` at ${input.districtName}` : ''}.`,
      `You already have an account with this address: sign in at ${base}/auth, or reset your password at ${base}/forgot-password if you forgot it.`,
    ],
    notYou: "If this wasn't you, ignore this mail: nothing has changed.",
  });
}

export function signUpMail(deps: EmailLinkDeps): SignUpMail {
  return {
    sendSignupLink: (input) => issueSignupLink(deps, undefined, input),
    async sendAlreadyRegistered(input) {
      await deps.tokens.transaction((tx) =>
        deps.mail.enqueue(tx, alreadyRegisteredMessage({ ...input, publicUrl: deps.publicUrl })),
      );
    },
  };
}
