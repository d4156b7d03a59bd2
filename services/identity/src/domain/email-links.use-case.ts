// One-time links sent by mail (D4): email verification, sign-up by link at a district's domain,
// password reset, invitations. Each link carries a 32-byte random token (base64url); only its
// SHA-256 is stored, and it is redeemed once. Mails are queued in the caller's transaction
// (packages/mail) and delivered after commit; a mail never contains a password.
//
// Exported for other use cases (signatures):
//   sendVerification(deps, tx, user: { id, email, firstName }): Promise<void>
//     Mails a verify link (24 h) to the user's current address; earlier verify links stop working.
//     Called on every non-district password sign-up (and a resend).
//   issueSignupLink(deps, tx | undefined, { email, firstName, lastName, role, passwordHash, tenantId }): Promise<void>
//     Mails a sign-up link (24 h) that creates the account in the tenant, verified, when opened
//     (POST /api/auth/email/verify). No tx: runs in its own transaction.
//   issueInvitation(deps, { tenantId, email, role, invitedBy, tenantName }, tx?): Promise<void>
//     Mails an invitation link (7 days) to `${PUBLIC_URL}/accept-invitation?token=…`; the token is
//     email_tokens purpose 'invite', tenant_id = the district, payload { role, invitedBy }.
//   sendEmailChange(deps, tx, user, newEmail): Promise<void>
//     Mails a link (24 h) to the NEW address that makes it the account's when opened, and a notice
//     without a link to the old one. Called on a profile email change (with the current password).
//   redeemEmailLink(deps, token): verify, sign-up or email-change link → { kind, user }
//   requestPasswordReset(deps, email), resetPassword(deps, { token, password }),
//   changePassword(deps, { userId, sessionId, currentPassword, newPassword })
import { randomUUID } from 'node:crypto';
import { escapeHtml } from '@checkpoint/mail';
import { AppError, NotFoundError, ValidationError } from '@checkpoint/service-kit';
import type {
  EmailTokenPurpose,
  EmailTokenRecord,
  EmailTokensRepository,
} from '../data-access/email-tokens.repository.ts';
import type { Tx } from '../data-access/prisma.ts';
import type { SessionsRepository } from '../data-access/sessions.repository.ts';
import { DuplicateEmailError, type UsersRepository } from '../data-access/users.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { assertPasswordAllowed } from './password-policy.ts';
import { holdTenantForChange, recordAudit } from './privacy/privacy.use-case.ts';
import type { UserEventWriter } from './ports.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import { mailTexts, PRODUCT_NAME, type MailTexts } from './email-texts.ts';
import { isLocale, type Locale } from './locales.ts';
import { normalizeEmail, type UserRecord, type UserRole } from './user.ts';

export { PRODUCT_NAME };
const HOUR_MS = 3_600_000;
export const EMAIL_LINK_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * HOUR_MS,
  signup: 24 * HOUR_MS,
  reset: HOUR_MS,
  invite: 7 * 24 * HOUR_MS,
  welcome: 7 * 24 * HOUR_MS,
  email_change: 24 * HOUR_MS,
};
/** Web pages the links open (web/src/routes). */
export const EMAIL_LINK_PATHS: Record<EmailTokenPurpose, string> = {
  verify: '/verify-email',
  signup: '/verify-email',
  reset: '/reset-password',
  invite: '/accept-invitation',
  // A welcome link sets the first password as a reset link does.
  welcome: '/reset-password',
  // An email change's link is opened on the same page as a verification link.
  email_change: '/verify-email',
};

export const INVALID_TOKEN_MESSAGE = 'This link has expired or was already used. Please request a new one.';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

export const DISTRICT_ADDRESS_MESSAGE =
  "This address is at a district's email domain: only that district's accounts can use it. Ask the district's admin for an invitation.";

/** 403 district_address: the address is at the domain of a district the account is not in. */
export class DistrictAddressError extends AppError {
  constructor() {
    super('forbidden', 'district_address', DISTRICT_ADDRESS_MESSAGE, { email: DISTRICT_ADDRESS_MESSAGE });
  }
}

/**
 * An address at a district's (or school's) email domain belongs to that district: an account of
 * another tenant never takes it (a squatter would block the district's invitation, roster row and
 * sign-up of the real owner).
 */
export async function assertAddressAllowedFor(
  users: Pick<UsersRepository, 'findTenantIdByDomain' | 'findTenant'>,
  tenantId: string,
  email: string,
): Promise<void> {
  const domain = normalizeEmail(email).split('@').pop() ?? '';
  if (!(await users.findTenantIdByDomain(domain))) return;
  const own = await users.findTenant(tenantId);
  if (!own?.emailDomains.some((d) => d.toLowerCase() === domain)) throw new DistrictAddressError();
}

/**
 * The greeting of a mail to an account's address. A name is only echoed when the address is proven
 * to be the account's (then its owner typed the name); otherwise whoever created the account or
 * typed the address may be a stranger to the inbox, and their text is never mailed to it.
 */
function greetingFor(user: Pick<UserRecord, 'firstName' | 'locale'> & { emailVerified?: boolean }): string {
  const texts = mailTexts(user.locale);
  return user.emailVerified && user.firstName ? texts.hi(user.firstName) : texts.hello;
}

export class InvalidEmailTokenError extends AppError {
  constructor() {
    super('invalid', 'invalid_token', INVALID_TOKEN_MESSAGE, { token: INVALID_TOKEN_MESSAGE });
  }
}

export interface QueuedMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface EmailLinkDeps {
  users: UsersRepository;
  tokens: EmailTokensRepository;
  sessions: SessionsRepository;
  events: UserEventWriter;
  /** packages/mail's queue: writes the mail in the transaction. */
  mail: { enqueue(tx: Tx, message: QueuedMail): Promise<unknown> };
  /** The web app's origin (PUBLIC_URL), for the links. */
  publicUrl: string;
  now?: () => Date;
}

// ---------------------------------------------------------------------------------------------
// Mail texts

function linkUrl(deps: Pick<EmailLinkDeps, 'publicUrl'>, purpose: EmailTokenPurpose, token: string): string {
  return `${deps.publicUrl.replace(/\/+$/, '')}${EMAIL_LINK_PATHS[purpose]}?token=${token}`;
}

function expiryText(ms: number, locale?: string | null): string {
  return mailTexts(locale).duration(ms);
}

/** A plain-text and a simple HTML mail: greeting, paragraphs, one button-like link, expiry, "not you". */
export function linkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string; expiresInMs: number };
  notYou?: string;
  /** The frame's language (the user's locale); English by default. */
  locale?: string | null | undefined;
}): QueuedMail {
  const texts = mailTexts(input.locale);
  const notYou = input.notYou ?? texts.notYou;
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(input.action
      ? [
          `${input.action.label}: ${input.action.url}`,
          '',
          texts.expiresIn(expiryText(input.action.expiresInMs, input.locale)),
          '',
        ]
      : []),
    notYou,
    '',
    `— ${PRODUCT_NAME}`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#222">',
    `<p>${escapeHtml(input.greeting)}</p>`,
    ...input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(input.action
      ? [
          `<p><a href="${escapeHtml(input.action.url)}" style="display:inline-block;padding:10px 16px;background:#2563eb;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(input.action.label)}</a></p>`,
          `<p style="font-size:13px;color:#555">${escapeHtml(texts.orOpen)} ${escapeHtml(input.action.url)}<br>${escapeHtml(texts.expiresIn(expiryText(input.action.expiresInMs, input.locale)))}</p>`,
        ]
      : []),
    `<p style="font-size:13px;color:#555">${escapeHtml(notYou)}</p>`,
    `<p>— ${PRODUCT_NAME}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject: input.subject, text, html };
}

// ---------------------------------------------------------------------------------------------
// Issuing links

async function issueToken(
  deps: EmailLinkDeps,
  tx: Tx,
  input: {
    purpose: EmailTokenPurpose;
    email: string;
    userId?: string | null;
    tenantId?: string | null;
    payload?: Record<string, unknown>;
  },
): Promise<string> {
  const token = randomToken();
  const now = deps.now?.() ?? new Date();
  await deps.tokens.create(
    {
      tokenHash: sha256Hex(token),
      purpose: input.purpose,
      userId: input.userId ?? null,
      tenantId: input.tenantId ?? null,
      email: input.email,
      payload: input.payload ?? {},
      expiresAt: new Date(now.getTime() + EMAIL_LINK_TTL_MS[input.purpose]),
    },
    tx,
  );
  return token;
}

/** Mails a verification link to the user's address (in `tx`); older verify links stop working. */
export async function sendVerification(
  deps: EmailLinkDeps,
  tx: Tx,
  user: Pick<UserRecord, 'id' | 'email'> & Partial<Pick<UserRecord, 'locale'>>,
): Promise<void> {
  const texts = mailTexts(user.locale).verify;
  await deps.tokens.invalidate(user.id, 'verify', tx);
  const token = await issueToken(deps, tx, { purpose: 'verify', email: user.email, userId: user.id });
  await deps.mail.enqueue(
    tx,
    linkMail({
      to: user.email,
      subject: texts.subject,
      // Sent to an address nobody has proven yet: nothing the sign-up typed (a name) is echoed.
      greeting: mailTexts(user.locale).hello,
      paragraphs: [texts.paragraph(user.email)],
      locale: user.locale,
      action: {
        label: texts.action,
        url: linkUrl(deps, 'verify', token),
        expiresInMs: EMAIL_LINK_TTL_MS.verify,
      },
      notYou: texts.notYou,
    }),
  );
}

/**
 * An email change asked by the signed-in user (PUT /api/auth/user, with the current password): the
 * NEW address gets a link (24 h) that makes it the account's sign-in address when opened; until
 * then nothing changes and earlier change links stop working. The OLD address is told, with no
 * link: what was asked and what to do if it was not its owner.
 */
export async function sendEmailChange(
  deps: EmailLinkDeps,
  tx: Tx,
  user: Pick<UserRecord, 'id' | 'email' | 'firstName' | 'emailVerified'> & Partial<Pick<UserRecord, 'locale'>>,
  newEmail: string,
  options: { addressTaken?: boolean } = {},
): Promise<void> {
  const email = normalizeEmail(newEmail);
  await deps.tokens.invalidate(user.id, 'email_change', tx);
  // Issued even when another account has the address, so that the change shows as pending the same
  // way (the answer does not tell that the address is registered); that link is never mailed, and
  // it could not move the address anyway (the redemption refuses an address that has an account).
  const token = await issueToken(deps, tx, { purpose: 'email_change', email, userId: user.id });
  await deps.mail.enqueue(
    tx,
    options.addressTaken
      ? alreadyRegisteredMessage({
          email,
          publicUrl: deps.publicUrl,
          locale: user.locale,
          asked: (words) => words.askedEmailChange(email),
        })
      : linkMail({
          to: email,
          subject: `Confirm your new email for ${PRODUCT_NAME}`,
          // The inbox may not be the account holder's: nothing the account typed is echoed to it.
          greeting: 'Hello,',
          paragraphs: [
            `A ${PRODUCT_NAME} account asked to use ${email} as its sign-in address. It changes only when this link is opened.`,
          ],
          action: {
            label: 'Use this address',
            url: linkUrl(deps, 'email_change', token),
            expiresInMs: EMAIL_LINK_TTL_MS.email_change,
          },
          notYou: "If you didn't ask for this, ignore this mail: the address is not used and nothing changes.",
        }),
  );
  await deps.mail.enqueue(
    tx,
    linkMail({
      to: user.email,
      subject: mailTexts(user.locale).emailChanging.subject,
      greeting: greetingFor(user),
      paragraphs: mailTexts(user.locale).emailChanging.paragraphs(
        user.email,
        email,
        expiryText(EMAIL_LINK_TTL_MS.email_change, user.locale),
      ),
      notYou: mailTexts(user.locale).emailChanging.notYou,
      locale: user.locale,
    }),
  );
}

/**
 * "You already have an account": sign in, or reset the password. Never says more, and echoes
 * nothing a stranger typed: `asked` says what was asked (a sign-up, an email change).
 */
export function alreadyRegisteredMessage(input: {
  email: string;
  publicUrl: string;
  locale: string | null | undefined;
  /** Who asked, in the mail's words. */
  asked: (words: MailTexts['alreadyRegistered']) => string;
}): QueuedMail {
  const base = input.publicUrl.replace(/\/+$/, '');
  const texts = mailTexts(input.locale);
  const words = texts.alreadyRegistered;
  return linkMail({
    to: input.email,
    subject: words.subject,
    greeting: texts.hello,
    paragraphs: [input.asked(words), words.paragraph(`${base}/auth`, `${base}/forgot-password`)],
    notYou: words.notYou,
    locale: input.locale,
  });
}

export interface SignupLinkInput {
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  /** argon2id hash of the chosen password (stored with the token, never mailed). */
  passwordHash: string;
  /** The district the account joins; unset: a new individual space is made when the link is opened. */
  tenantId?: string;
  /** The language of the sign-up form: the mail's, and the account's when the link makes it. */
  locale?: Locale | undefined;
}

/** Mails the link that creates the account when opened (D1). */
export async function issueSignupLink(deps: EmailLinkDeps, tx: Tx | undefined, input: SignupLinkInput): Promise<void> {
  if (!tx) return deps.tokens.transaction((own) => issueSignupLink(deps, own, input));
  const email = normalizeEmail(input.email);
  const tenant = input.tenantId ? await deps.tokens.findTenantInfo(input.tenantId) : undefined;
  const token = await issueToken(deps, tx, {
    purpose: 'signup',
    email,
    tenantId: input.tenantId ?? null,
    payload: {
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      passwordHash: input.passwordHash,
      ...(input.locale ? { locale: input.locale } : {}),
    },
  });
  const texts = mailTexts(input.locale);
  await deps.mail.enqueue(
    tx,
    linkMail({
      to: email,
      subject: texts.signup.subject,
      // Anyone can ask for this mail to any address: nothing they typed (the name) is echoed.
      greeting: texts.hello,
      paragraphs: [texts.signup.paragraph(email, tenant?.name)],
      action: {
        label: texts.signup.action,
        url: linkUrl(deps, 'signup', token),
        expiresInMs: EMAIL_LINK_TTL_MS.signup,
      },
      notYou: texts.signup.notYou,
      locale: input.locale,
    }),
  );
}

/**
 * Mails an invitation to join the district; nothing secret is returned. `coTeaching`: a class's
 * owner (a teacher) asked for the address as a co-teacher (CoTeacherInvited): the mail says which
 * class, and the audit entry names the class's route and the teacher.
 */
export async function issueInvitation(
  deps: EmailLinkDeps,
  input: {
    tenantId: string;
    email: string;
    role: UserRole;
    invitedBy: string;
    tenantName: string;
    coTeaching?: { classId: string; className: string };
  },
  tx?: Tx,
): Promise<void> {
  if (!tx) return deps.tokens.transaction((own) => issueInvitation(deps, input, own));
  // The audit lock before the token's row (which holds on to the tenant's): a district deletion at
  // the same moment takes them in that order; a district deleted meanwhile has nobody to invite.
  if (!(await holdTenantForChange(tx, input.tenantId))) throw new NotFoundError();
  const email = normalizeEmail(input.email);
  const token = await issueToken(deps, tx, {
    purpose: 'invite',
    email,
    tenantId: input.tenantId,
    payload: { role: input.role, invitedBy: input.invitedBy },
  });
  const article = input.role === 'admin' ? 'an' : 'a';
  await deps.mail.enqueue(
    tx,
    linkMail({
      to: email,
      subject: `You're invited to ${input.tenantName} on ${PRODUCT_NAME}`,
      greeting: 'Hello,',
      paragraphs: [
        `You have been invited to join ${input.tenantName} on ${PRODUCT_NAME} as ${article} ${input.role}.`,
        ...(input.coTeaching
          ? [`Once your account is created, you will be a co-teacher of the class ${input.coTeaching.className}.`]
          : []),
      ],
      action: {
        label: 'Accept the invitation',
        url: linkUrl(deps, 'invite', token),
        expiresInMs: EMAIL_LINK_TTL_MS.invite,
      },
      notYou: "If you don't expect this invitation, ignore this mail: no account is created.",
    }),
  );
  // The district's record of who invited whom (read in names: audit-log.ts), with the mail.
  await recordAudit(tx, {
    tenantId: input.tenantId,
    actorId: input.invitedBy,
    actorRole: input.coTeaching ? 'teacher' : 'admin',
    action: 'change',
    resource: input.coTeaching ? 'POST /api/classes/{id}/teachers' : 'POST /api/district/invitations',
    targetIds: input.coTeaching ? [input.coTeaching.classId] : [],
    event: 'invitation.sent',
    details: { email, role: input.role, invitation: sha256Hex(token) },
  });
}

/** The address of a rostered user the file gave none (plan.ts placeholderEmail): no mail goes there. */
const UNDELIVERABLE = /@roster\.invalid$/i;

/**
 * Welcomes the accounts a roster import created (in the import's batch transaction, through the
 * outbox-driven mail queue like an invitation): how to sign in, with a link that sets the first
 * password (7 days) when the district allows passwords, or its own sign-in when it does not.
 */
export async function sendRosterWelcome(
  deps: EmailLinkDeps,
  tx: Tx,
  users: UserRecord[],
  district: { name: string; passwordSignIn: boolean },
): Promise<void> {
  const signInUrl = `${deps.publicUrl.replace(/\/+$/, '')}/auth`;
  for (const user of users) {
    if (UNDELIVERABLE.test(user.email) || user.disabledAt) continue;
    const intro = `${district.name} created your ${PRODUCT_NAME} account (${user.email}) as ${user.role === 'admin' ? 'an' : 'a'} ${user.role}. ${PRODUCT_NAME} is where your classes' assessments and practice are.`;
    if (!district.passwordSignIn) {
      await deps.mail.enqueue(
        tx,
        linkMail({
          to: user.email,
          subject: `Welcome to ${district.name} on ${PRODUCT_NAME}`,
          greeting: `Hi ${user.firstName || 'there'},`,
          paragraphs: [
            intro,
            `Sign in with your school account: “Continue with ${district.name}” on the sign-in page, ${signInUrl}. There is no separate password to set.`,
          ],
        }),
      );
      continue;
    }
    const token = await issueToken(deps, tx, { purpose: 'welcome', email: user.email, userId: user.id });
    await deps.mail.enqueue(
      tx,
      linkMail({
        to: user.email,
        subject: `Welcome to ${district.name} on ${PRODUCT_NAME}`,
        greeting: `Hi ${user.firstName || 'there'},`,
        paragraphs: [
          intro,
          `Choose your password with the link below, then sign in at ${signInUrl}. If your school signs in with its own account, you can use that instead.`,
        ],
        action: {
          label: 'Choose your password',
          url: linkUrl(deps, 'welcome', token),
          expiresInMs: EMAIL_LINK_TTL_MS.welcome,
        },
        notYou: `If you are not a student or teacher of ${district.name}, ignore this mail.`,
      }),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Opening links

export type EmailLinkOutcome =
  | { kind: 'verified'; user: UserRecord }
  | { kind: 'signed-up'; user: UserRecord }
  | { kind: 'email-changed'; user: UserRecord };

/**
 * An email change's link: the address it was sent to becomes the sign-in address of the account
 * that asked, verified. Void when that account is gone or disabled, when another account holds
 * the address now, or when the address is at the domain of a district the account is not in.
 */
async function redeemEmailChange(deps: EmailLinkDeps, record: EmailTokenRecord): Promise<EmailLinkOutcome> {
  const user = record.userId ? await deps.users.findById(record.userId) : undefined;
  if (!user || user.disabledAt) throw new InvalidEmailTokenError();
  const holder = await deps.users.findByEmail(record.email);
  if (holder && holder.id !== user.id) throw new InvalidEmailTokenError();
  try {
    await assertAddressAllowedFor(deps.users, user.tenantId, record.email);
  } catch {
    throw new InvalidEmailTokenError();
  }
  try {
    const changed = await deps.users.changeEmail(user.id, record.email, async (tx, updated) => {
      await deps.events.updated(tx, updated);
      // Links sent to the old address are for an address the account no longer has.
      for (const purpose of ['verify', 'reset', 'welcome', 'email_change'] as const) {
        await deps.tokens.invalidate(user.id, purpose, tx);
      }
    });
    if (!changed) throw new InvalidEmailTokenError();
    return { kind: 'email-changed', user: changed };
  } catch (err) {
    if (err instanceof DuplicateEmailError) throw new InvalidEmailTokenError();
    throw err;
  }
}

function text(payload: Record<string, unknown>, key: string): string {
  const value = payload[key];
  return typeof value === 'string' ? value : '';
}

/** `POST /api/auth/email/verify`: a verify link marks the address proven; a sign-up link creates the account. */
export async function redeemEmailLink(deps: EmailLinkDeps, token: string): Promise<EmailLinkOutcome> {
  const tokenHash = sha256Hex(token);
  const record = await deps.tokens.redeem(tokenHash, ['verify', 'signup', 'email_change']);
  if (!record) throw new InvalidEmailTokenError();
  if (record.purpose === 'email_change') return redeemEmailChange(deps, record);
  if (record.purpose === 'verify') {
    if (!record.userId) throw new InvalidEmailTokenError();
    // A link to an address the user has changed since proves nothing about the account.
    const ok = await deps.tokens.markEmailVerified(record.userId, record.email);
    const user = ok ? await deps.users.findById(record.userId) : undefined;
    if (!user || user.disabledAt) throw new InvalidEmailTokenError();
    return { kind: 'verified', user };
  }
  const payload = record.payload;
  const role = text(payload, 'role');
  const passwordHash = text(payload, 'passwordHash');
  if ((role !== 'teacher' && role !== 'student') || !passwordHash) throw new InvalidEmailTokenError();
  const firstName = text(payload, 'firstName');
  const lastName = text(payload, 'lastName');
  const locale = text(payload, 'locale');
  try {
    const user = await deps.users.create(
      {
        id: randomUUID(),
        email: record.email,
        firstName,
        lastName,
        role,
        passwordHash,
        ...(isLocale(locale) ? { locale } : {}),
        // A district's link joins the district; any other makes the person's own individual space.
        ...(record.tenantId
          ? { tenantId: record.tenantId }
          : { newTenant: { name: `${firstName} ${lastName}`.trim(), kind: 'individual' as const } }),
        emailVerifiedAt: deps.now?.() ?? new Date(),
      },
      (tx, created) => deps.events.registered(tx, created),
    );
    return { kind: 'signed-up', user };
  } catch (err) {
    // The address got an account meanwhile (another link, an invitation): this link is spent.
    if (err instanceof DuplicateEmailError) throw new InvalidEmailTokenError();
    await deps.tokens.unredeem(tokenHash);
    throw err;
  }
}

/** `POST /api/auth/email/resend`: a new verification link, unless the address is verified. */
export async function resendVerification(deps: EmailLinkDeps, user: UserRecord): Promise<boolean> {
  if (user.emailVerified) return false;
  await deps.tokens.transaction((tx) => sendVerification(deps, tx, user));
  return true;
}

// ---------------------------------------------------------------------------------------------
// Passwords

/**
 * `POST /api/auth/password/forgot`: mails a reset link when an enabled account has this address;
 * a member of a district that signs in only through its provider is told to use it. The caller
 * answers the same in every case.
 */
export async function requestPasswordReset(deps: EmailLinkDeps, rawEmail: string): Promise<void> {
  const email = normalizeEmail(rawEmail);
  const user = await deps.users.findByEmail(email);
  if (!user || user.disabledAt) return;
  const tenant = user.tenantKind === 'individual' ? undefined : await deps.tokens.findTenantInfo(user.tenantId);
  await deps.tokens.transaction(async (tx) => {
    if (tenant && !tenant.passwordSignIn) {
      await deps.mail.enqueue(
        tx,
        linkMail({
          to: user.email,
          subject: mailTexts(user.locale).resetWithProvider.subject,
          greeting: greetingFor(user),
          paragraphs: mailTexts(user.locale).resetWithProvider.paragraphs(
            user.email,
            tenant.name,
            `${deps.publicUrl.replace(/\/+$/, '')}/auth`,
          ),
          locale: user.locale,
        }),
      );
      return;
    }
    await deps.tokens.invalidate(user.id, 'reset', tx);
    const token = await issueToken(deps, tx, { purpose: 'reset', email: user.email, userId: user.id });
    await deps.mail.enqueue(
      tx,
      linkMail({
        to: user.email,
        subject: mailTexts(user.locale).reset.subject,
        greeting: greetingFor(user),
        paragraphs: [mailTexts(user.locale).reset.paragraph(user.email)],
        locale: user.locale,
        action: {
          label: mailTexts(user.locale).reset.action,
          url: linkUrl(deps, 'reset', token),
          expiresInMs: EMAIL_LINK_TTL_MS.reset,
        },
        notYou: mailTexts(user.locale).reset.notYou,
      }),
    );
  });
}

/**
 * `POST /api/auth/password/reset`: sets the password, marks the address proven (the link went to
 * it) and ends every session of the user. Returns the user.
 */
export async function resetPassword(
  deps: EmailLinkDeps,
  input: { token: string; password: string },
): Promise<UserRecord> {
  const passwordHash = await hashPassword(input.password);
  const userId = await deps.tokens.transaction(async (tx) => {
    const record = await deps.tokens.redeem(sha256Hex(input.token), ['reset', 'welcome'], tx);
    if (!record?.userId) return undefined;
    const user = await tx.user.findUnique({
      where: { id: record.userId },
      select: { email: true, disabledAt: true, role: true },
    });
    // The address changed since the link was sent, or the account was disabled: the link is void.
    if (!user || user.disabledAt || user.email !== record.email) return undefined;
    // Refused before anything is written: the transaction rolls back and the link stays usable.
    assertPasswordAllowed(input.password, user.role as UserRole);
    await deps.tokens.setPasswordHash(record.userId, passwordHash, tx);
    await deps.tokens.markEmailVerified(record.userId, record.email, tx);
    await deps.tokens.invalidate(record.userId, 'reset', tx);
    await deps.tokens.invalidate(record.userId, 'welcome', tx);
    return record.userId;
  });
  if (!userId) throw new InvalidEmailTokenError();
  // Whoever knew the old password is signed out, on every device (the gateway hears of the
  // revocations through /internal/sessions/revoked, like a sign-out).
  await deps.sessions.revokeAllOfUser(userId);
  const user = await deps.users.findById(userId);
  if (!user) throw new InvalidEmailTokenError();
  return user;
}

/**
 * `PUT /api/auth/password`: needs the current password; accounts without one (SSO only) set a
 * password through the reset link. Ends the user's other sessions, keeps `sessionId`.
 */
export async function changePassword(
  deps: EmailLinkDeps,
  input: { userId: string; sessionId?: string; currentPassword: string; newPassword: string },
): Promise<void> {
  const stored = await deps.users.findPasswordHash(input.userId);
  const ok = await verifyPassword(stored, input.currentPassword);
  if (!ok) {
    const message = stored
      ? WRONG_CURRENT_PASSWORD
      : 'Your account has no password yet. Use “Forgot password?” on the sign-in page to set one.';
    throw new ValidationError(message, { currentPassword: message });
  }
  const user = await deps.users.findById(input.userId);
  if (user) assertPasswordAllowed(input.newPassword, user.role, 'newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  await deps.tokens.transaction(async (tx) => {
    await deps.tokens.setPasswordHash(input.userId, passwordHash, tx);
    // Outstanding reset links were for the old password.
    await deps.tokens.invalidate(input.userId, 'reset', tx);
  });
  await deps.sessions.revokeAllOfUserExcept(input.userId, input.sessionId);
}
