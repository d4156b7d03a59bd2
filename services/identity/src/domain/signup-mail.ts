// The mails of a password sign-up (membership.use-case.ts): the sign-up link (issueSignupLink of
// email-links.use-case.ts) or, when the address has an account already, a note saying so. Both
// answer the same 202, so only the inbox's owner learns which one it was.
import { alreadyRegisteredMessage, issueSignupLink, PRODUCT_NAME, type EmailLinkDeps } from './email-links.use-case.ts';
import type { SignUpMail } from './membership.use-case.ts';

export function signUpMail(deps: EmailLinkDeps): SignUpMail {
  return {
    sendSignupLink: (input) => issueSignupLink(deps, undefined, input),
    async sendAlreadyRegistered({ email, districtName }) {
      const asked = `Someone (hopefully you) tried to create a ${PRODUCT_NAME} account for ${email}${districtName ? ` at ${districtName}` : ''}.`;
      await deps.tokens.transaction((tx) =>
        deps.mail.enqueue(tx, alreadyRegisteredMessage({ email, publicUrl: deps.publicUrl, asked })),
      );
    },
  };
}
