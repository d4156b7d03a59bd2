// The mails of a password sign-up (membership.use-case.ts): the sign-up link (issueSignupLink of
// email-links.use-case.ts) or, when the address has an account already, a note saying so. Both
// answer the same 202, so only the inbox's owner learns which one it was.
import { alreadyRegisteredMessage, issueSignupLink, type EmailLinkDeps } from './email-links.use-case.ts';
import type { SignUpMail } from './membership.use-case.ts';

export function signUpMail(deps: EmailLinkDeps): SignUpMail {
  return {
    sendSignupLink: (input) => issueSignupLink(deps, undefined, input),
    async sendAlreadyRegistered({ email, districtName, locale }) {
      const message = alreadyRegisteredMessage({
        email,
        publicUrl: deps.publicUrl,
        locale,
        asked: (words) => words.askedSignUp(email, districtName),
      });
      await deps.tokens.transaction((tx) => deps.mail.enqueue(tx, message));
    },
  };
}
