// The words of the mails identity sends, per interface language (locales.ts): a known user's
// `locale`, English when never chosen; a sign-up's mails in the language its form was filled in.
// A third language is one more entry of MAIL_TEXTS.
import { DEFAULT_LOCALE, isLocale, type Locale } from './locales.ts';

export const PRODUCT_NAME = 'Checkpoint';

const HOUR_MS = 60 * 60 * 1000;

export interface MailTexts {
  hello: string;
  hi(firstName: string): string;
  expiresIn(duration: string): string;
  orOpen: string;
  notYou: string;
  duration(ms: number): string;
  verify: { subject: string; paragraph(email: string): string; action: string; notYou: string };
  reset: { subject: string; paragraph(email: string): string; action: string; notYou: string };
  resetWithProvider: { subject: string; paragraphs(email: string, tenant: string, signInUrl: string): string[] };
  emailChanging: {
    subject: string;
    paragraphs(oldEmail: string, newEmail: string, within: string): string[];
    notYou: string;
  };
  /** The link a password sign-up mails (nothing the form's sender typed is echoed but the address). */
  signup: { subject: string; paragraph(email: string, districtName?: string): string; action: string; notYou: string };
  /** The note to an address that has an account already (a sign-up or an email change asked for it). */
  alreadyRegistered: {
    subject: string;
    askedSignUp(email: string, districtName?: string): string;
    askedEmailChange(email: string): string;
    paragraph(signInUrl: string, resetUrl: string): string;
    notYou: string;
  };
}

function duration(ms: number, words: { day: string; days: string; hour: string; hours: string }): string {
  if (ms % (24 * HOUR_MS) === 0) {
    const days = ms / (24 * HOUR_MS);
    return days === 1 ? `24 ${words.hours}` : `${days} ${words.days}`;
  }
  const hours = ms / HOUR_MS;
  return hours === 1 ? `1 ${words.hour}` : `${hours} ${words.hours}`;
}

export const MAIL_TEXTS: Record<Locale, MailTexts> = {
  en: {
    hello: 'Hello,',
    hi: (firstName) => `Hi ${firstName},`,
    expiresIn: (d) => `This link expires in ${d}.`,
    orOpen: 'Or open this link:',
    notYou: "If this wasn't you, ignore this mail: nothing changes.",
    duration: (ms) => duration(ms, { day: 'day', days: 'days', hour: 'hour', hours: 'hours' }),
    verify: {
      subject: `Verify your email for ${PRODUCT_NAME}`,
      paragraph: (email) => `Please confirm that ${email} is your email address for your ${PRODUCT_NAME} account.`,
      action: 'Verify your email',
      notYou: "If you didn't create this account or change its email, ignore this mail.",
    },
    reset: {
      subject: `Reset your ${PRODUCT_NAME} password`,
      paragraph: (email) =>
        `Someone asked to reset the password of your ${PRODUCT_NAME} account (${email}). Open the link below to choose a new one. Setting it signs you out everywhere.`,
      action: 'Choose a new password',
      notYou: "If you didn't ask for this, ignore this mail: your password stays as it is.",
    },
    resetWithProvider: {
      subject: `Signing in to ${PRODUCT_NAME}`,
      paragraphs: (email, tenant, url) => [
        `Someone asked to reset the ${PRODUCT_NAME} password of ${email}.`,
        `${tenant} signs in with its own provider, so there is no ${PRODUCT_NAME} password to reset. Use “Continue with ${tenant}” on the sign-in page: ${url}`,
      ],
    },
    emailChanging: {
      subject: `Your ${PRODUCT_NAME} sign-in email is being changed`,
      paragraphs: (oldEmail, newEmail, within) => [
        `Someone signed in to your ${PRODUCT_NAME} account (${oldEmail}) with its password and asked to change its sign-in address to ${newEmail}.`,
        `The change happens only if the link mailed to the new address is opened within ${within}; until then you sign in with ${oldEmail} as before.`,
      ],
      notYou: `If this wasn't you, sign in and change your password at once (that signs out every other device and makes this request's password useless), then set your email back in Settings. If you cannot sign in, use “Forgot password?” on the sign-in page.`,
    },
    signup: {
      subject: `Finish creating your ${PRODUCT_NAME} account`,
      paragraph: (email, district) =>
        `Open the link below to finish creating your ${PRODUCT_NAME} account${district ? ` at ${district}` : ''} for ${email}.`,
      action: 'Create my account',
      notYou: "If you didn't sign up, ignore this mail: no account is created.",
    },
    alreadyRegistered: {
      subject: `You already have a ${PRODUCT_NAME} account`,
      askedSignUp: (email, district) =>
        `Someone (hopefully you) tried to create a ${PRODUCT_NAME} account for ${email}${district ? ` at ${district}` : ''}.`,
      askedEmailChange: (email) => `A ${PRODUCT_NAME} account asked to use ${email} as its sign-in address.`,
      paragraph: (signIn, reset) =>
        `You already have an account with this address, so nothing changes: sign in at ${signIn}, or reset your password at ${reset} if you forgot it.`,
      notYou: "If this wasn't you, ignore this mail: nothing has changed.",
    },
  },
  es: {
    hello: 'Hola:',
    hi: (firstName) => `Hola, ${firstName}:`,
    expiresIn: (d) => `Este enlace vence en ${d}.`,
    orOpen: 'O abra este enlace:',
    notYou: 'Si no fue usted, ignore este correo: no cambia nada.',
    duration: (ms) => duration(ms, { day: 'día', days: 'días', hour: 'hora', hours: 'horas' }),
    verify: {
      subject: `Verifique su correo electrónico para ${PRODUCT_NAME}`,
      paragraph: (email) =>
        `Confirme que ${email} es su dirección de correo electrónico para su cuenta de ${PRODUCT_NAME}.`,
      action: 'Verificar mi correo',
      notYou: 'Si usted no creó esta cuenta ni cambió su correo, ignore este mensaje.',
    },
    reset: {
      subject: `Restablezca su contraseña de ${PRODUCT_NAME}`,
      paragraph: (email) =>
        `Alguien pidió restablecer la contraseña de su cuenta de ${PRODUCT_NAME} (${email}). Abra el enlace de abajo para elegir una nueva. Al cambiarla, se cerrará su sesión en todos los dispositivos.`,
      action: 'Elegir una contraseña nueva',
      notYou: 'Si usted no lo pidió, ignore este correo: su contraseña sigue igual.',
    },
    resetWithProvider: {
      subject: `Cómo iniciar sesión en ${PRODUCT_NAME}`,
      paragraphs: (email, tenant, url) => [
        `Alguien pidió restablecer la contraseña de ${PRODUCT_NAME} de ${email}.`,
        `${tenant} inicia sesión con su propio proveedor, así que no hay una contraseña de ${PRODUCT_NAME} que restablecer. Use “Continuar con ${tenant}” en la página de inicio de sesión: ${url}`,
      ],
    },
    emailChanging: {
      subject: `Se está cambiando su correo de inicio de sesión de ${PRODUCT_NAME}`,
      paragraphs: (oldEmail, newEmail, within) => [
        `Alguien inició sesión en su cuenta de ${PRODUCT_NAME} (${oldEmail}) con su contraseña y pidió cambiar su dirección de inicio de sesión a ${newEmail}.`,
        `El cambio solo ocurre si se abre el enlace enviado a la nueva dirección dentro de ${within}; hasta entonces, usted sigue iniciando sesión con ${oldEmail}.`,
      ],
      notYou:
        'Si no fue usted, inicie sesión y cambie su contraseña de inmediato (eso cierra la sesión en todos los demás dispositivos e inutiliza la contraseña de esta solicitud); luego vuelva a poner su correo en Configuración. Si no puede iniciar sesión, use “¿Olvidó su contraseña?” en la página de inicio de sesión.',
    },
    signup: {
      subject: `Termine de crear su cuenta de ${PRODUCT_NAME}`,
      paragraph: (email, district) =>
        `Abra el enlace de abajo para terminar de crear su cuenta de ${PRODUCT_NAME}${district ? ` en ${district}` : ''} para ${email}.`,
      action: 'Crear mi cuenta',
      notYou: 'Si usted no se registró, ignore este correo: no se crea ninguna cuenta.',
    },
    alreadyRegistered: {
      subject: `Usted ya tiene una cuenta de ${PRODUCT_NAME}`,
      askedSignUp: (email, district) =>
        `Alguien (esperamos que usted) intentó crear una cuenta de ${PRODUCT_NAME} para ${email}${district ? ` en ${district}` : ''}.`,
      askedEmailChange: (email) =>
        `Una cuenta de ${PRODUCT_NAME} pidió usar ${email} como su dirección de inicio de sesión.`,
      paragraph: (signIn, reset) =>
        `Usted ya tiene una cuenta con esta dirección, así que no cambia nada: inicie sesión en ${signIn}, o restablezca su contraseña en ${reset} si la olvidó.`,
      notYou: 'Si no fue usted, ignore este correo: no ha cambiado nada.',
    },
  },
};

/** The texts for a user's stored locale (English when none or unknown). */
export function mailTexts(locale: string | null | undefined): MailTexts {
  return MAIL_TEXTS[isLocale(locale) ? locale : DEFAULT_LOCALE];
}
