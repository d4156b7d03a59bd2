// One-time links sent by mail (D4): email verification, sign-up by link at a district's domain,
// password reset, invitations. Each link carries a 32-byte random token (base64url); only its
// SHA-256 is stored, and it is redeemed once. Mails are queued in the caller's transaction
// (packages/mail) and delivered after commit; a mail never contains a password.
//
// Exported for other use cases (signatures):
//   sendVerification(deps, tx, user: { id, email, firstName }): Promise<void>
//     Mails a verify link (24 h) to the user's current address; earlier verify links stop working.
//     Called on every non-district password sign-up and on a profile email change.
//   issueSignupLink(deps, tx | undefined, { email, firstName, lastName, role, passwordHash, tenantId }): Promise<void>
//     Mails a sign-up link (24 h) that creates the account in the tenant, verified, when opened
//     (POST /api/auth/email/verify). No tx: runs in its own transaction.
//   issueInvitation(deps, { tenantId, email, role, invitedBy, tenantName }, tx?): Promise<void>
//     Mails an invitation link (7 days) to `${PUBLIC_URL}/accept-invitation?token=…`; the token is
//     email_tokens purpose 'invite', tenant_id = the district, payload { role, invitedBy }.
//   redeemEmailLink(deps, token): verify or sign-up link → { kind: 'verified' | 'signed-up', user }
//   requestPasswordReset(deps, email), resetPassword(deps, { token, password }),
//   changePassword(deps, { userId, sessionId, currentPassword, newPassword })
import { randomUUID } from 'node:crypto';
import { AppError, ValidationError } from '@checkpoint/service-kit';
import type { EmailTokenPurpose, EmailTokensRepository } from '../data-access/email-tokens.repository.ts';
import type { Tx } from '../data-access/prisma.ts';
import type { SessionsRepository } from '../data-access/sessions.repository.ts';
import { DuplicateEmailError, type UsersRepository } from '../data-access/users.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { recordAudit } from './privacy/privacy.use-case.ts';
import type { UserEventWriter } from './ports.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import { normalizeEmail, type UserRecord, type UserRole } from './user.ts';

export const PRODUCT_NAME = 'Checkpoint';
const HOUR_MS = 3_600_000;
export const EMAIL_LINK_TTL_MS: Record<EmailTokenPurpose, number> = {
  verify: 24 * HOUR_MS,
  signup: 24 * HOUR_MS,
  reset: HOUR_MS,
  invite: 7 * 24 * HOUR_MS,
  welcome: 7 * 24 * HOUR_MS,
};
/** Web pages the links open (web/src/routes). */
export const EMAIL_LINK_PATHS: Record<EmailTokenPurpose, string> = {
  verify: '/verify-email',
  signup: '/verify-email',
  reset: '/reset-password',
  invite: '/accept-invitation',
  // A welcome link sets the first password as a reset link does.
  welcome: '/reset-password',
};

export const INVALID_TOKEN_MESSAGE = 'This link has expired or was already used. Please request a new one.';
export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

export class InvalidEmailTokenError extends AppError {
  constructor() {
    super(400, 'invalid_token', INVALID_TOKEN_MESSAGE, { token: INVALID_TOKEN_MESSAGE });
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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function linkUrl(deps: Pick<EmailLinkDeps, 'publicUrl'>, purpose: EmailTokenPurpose, token: string): string {
  return `${deps.publicUrl.replace(/\/+$/, '')}${EMAIL_LINK_PATHS[purpose]}?token=${token}`;
}

function expiryText(ms: number): string {
  if (ms % (24 * HOUR_MS) === 0) {
    const days = ms / (24 * HOUR_MS);
    return days === 1 ? '24 hours' : `${days} days`;
  }
  const hours = ms / HOUR_MS;
  return hours === 1 ? '1 hour' : `${hours} hours`;
}

/** A plain-text and a simple HTML mail: greeting, paragraphs, one button-like link, expiry, "not you". */
export function linkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string; expiresInMs: number };
  notYou?: string;
}): QueuedMail {
  const notYou = input.notYou ?? "If this wasn't you, ignore this mail: nothing changes.";
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    ...(input.action
      ? [
          `${input.action.label}: ${input.action.url}`,
          '',
          `This link expires in ${expiryText(input.action.expiresInMs)}.`,
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
          `<p style="font-size:13px;color:#555">Or open this link: ${escapeHtml(input.action.url)}<br>This link expires in ${expiryText(input.action.expiresInMs)}.</p>`,
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
  user: Pick<UserRecord, 'id' | 'email' | 'firstName'>,
): Promise<void> {
  await deps.tokens.invalidate(user.id, 'verify', tx);
  const token = await issueToken(deps, tx, { purpose: 'verify', email: user.email, userId: user.id });
  await deps.mail.enqueue(
    tx,
    linkMail({
      to: user.email,
      subject: `Verify your email for ${PRODUCT_NAME}`,
      greeting: `Hi ${user.firstName || 'there'},`,
      paragraphs: [`Please confirm that ${user.email} is your email address for your ${PRODUCT_NAME} account.`],
      action: {
        label: 'Verify your email',
        url: linkUrl(deps, 'verify', token),
        expiresInMs: EMAIL_LINK_TTL_MS.verify,
      },
      notYou: "If you didn't create this account or change its email, ignore this mail.",
    }),
  );
}

export interface SignupLinkInput {
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  /** argon2id hash of the chosen password (stored with the token, never mailed). */
  passwordHash: string;
  tenantId: string;
}

/** Mails the link that creates the account in `tenantId` when opened (D1). */
export async function issueSignupLink(deps: EmailLinkDeps, tx: Tx | undefined, input: SignupLinkInput): Promise<void> {
  if (!tx) return deps.tokens.transaction((own) => issueSignupLink(deps, own, input));
  const email = normalizeEmail(input.email);
  const tenant = await deps.tokens.findTenantInfo(input.tenantId);
  const token = await issueToken(deps, tx, {
    purpose: 'signup',
    email,
    tenantId: input.tenantId,
    payload: {
      firstName: input.firstName,
      lastName: input.lastName,
      role: input.role,
      passwordHash: input.passwordHash,
    },
  });
  await deps.mail.enqueue(
    tx,
    linkMail({
      to: email,
      subject: `Finish creating your ${PRODUCT_NAME} account`,
      greeting: `Hi ${input.firstName || 'there'},`,
      paragraphs: [
        `Open the link below to finish creating your ${PRODUCT_NAME} account${tenant ? ` at ${tenant.name}` : ''} for ${email}.`,
      ],
      action: {
        label: 'Create my account',
        url: linkUrl(deps, 'signup', token),
        expiresInMs: EMAIL_LINK_TTL_MS.signup,
      },
      notYou: "If you didn't sign up, ignore this mail: no account is created.",
    }),
  );
}

/** Mails an invitation to join the district; nothing secret is returned. */
export async function issueInvitation(
  deps: EmailLinkDeps,
  input: { tenantId: string; email: string; role: UserRole; invitedBy: string; tenantName: string },
  tx?: Tx,
): Promise<void> {
  if (!tx) return deps.tokens.transaction((own) => issueInvitation(deps, input, own));
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
      paragraphs: [`You have been invited to join ${input.tenantName} on ${PRODUCT_NAME} as ${article} ${input.role}.`],
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
    actorRole: 'admin',
    action: 'change',
    resource: 'POST /api/district/invitations',
    targetIds: [],
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

export type EmailLinkOutcome = { kind: 'verified'; user: UserRecord } | { kind: 'signed-up'; user: UserRecord };

function text(payload: Record<string, unknown>, key: string): string {
  const value = payload[key];
  return typeof value === 'string' ? value : '';
}

/** `POST /api/auth/email/verify`: a verify link marks the address proven; a sign-up link creates the account. */
export async function redeemEmailLink(deps: EmailLinkDeps, token: string): Promise<EmailLinkOutcome> {
  const tokenHash = sha256Hex(token);
  const record = await deps.tokens.redeem(tokenHash, ['verify', 'signup']);
  if (!record) throw new InvalidEmailTokenError();
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
  if (!record.tenantId || (role !== 'teacher' && role !== 'student') || !passwordHash) {
    throw new InvalidEmailTokenError();
  }
  try {
    const user = await deps.users.create(
      {
        id: randomUUID(),
        email: record.email,
        firstName: text(payload, 'firstName'),
        lastName: text(payload, 'lastName'),
        role,
        passwordHash,
        tenantId: record.tenantId,
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
          subject: `Signing in to ${PRODUCT_NAME}`,
          greeting: `Hi ${user.firstName || 'there'},`,
          paragraphs: [
            `Someone asked to reset the ${PRODUCT_NAME} password of ${user.email}.`,
            `${tenant.name} signs in with its own provider, so there is no ${PRODUCT_NAME} password to reset. Use “Continue with ${tenant.name}” on the sign-in page: ${deps.publicUrl.replace(/\/+$/, '')}/auth`,
          ],
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
        subject: `Reset your ${PRODUCT_NAME} password`,
        greeting: `Hi ${user.firstName || 'there'},`,
        paragraphs: [
          `Someone asked to reset the password of your ${PRODUCT_NAME} account (${user.email}). Open the link below to choose a new one. Setting it signs you out everywhere.`,
        ],
        action: {
          label: 'Choose a new password',
          url: linkUrl(deps, 'reset', token),
          expiresInMs: EMAIL_LINK_TTL_MS.reset,
        },
        notYou: "If you didn't ask for this, ignore this mail: your password stays as it is.",
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
    const user = await tx.user.findUnique({ where: { id: record.userId }, select: { email: true, disabledAt: true } });
    // The address changed since the link was sent, or the account was disabled: the link is void.
    if (!user || user.disabledAt || user.email !== record.email) return undefined;
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
  const passwordHash = await hashPassword(input.newPassword);
  await deps.tokens.transaction(async (tx) => {
    await deps.tokens.setPasswordHash(input.userId, passwordHash, tx);
    // Outstanding reset links were for the old password.
    await deps.tokens.invalidate(input.userId, 'reset', tx);
  });
  await deps.sessions.revokeAllOfUserExcept(input.userId, input.sessionId);
}
