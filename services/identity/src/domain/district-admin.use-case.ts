// A district's admin manages its accounts (D6): reads the district and its users, invites people,
// removes accounts and promotes or demotes staff. Always the caller's own tenant: an id of any
// other tenant is "not found". The rules that keep a district administrable (never remove or
// demote yourself, never the last admin) are checked under the tenant row's lock.
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '@checkpoint/service-kit';
import type {
  DistrictRepository,
  DistrictTenant,
  DistrictUser,
  PendingInvitation,
  TenantChange,
  UserCursor,
} from '../data-access/district.repository.ts';
import type { UsersRepository } from '../data-access/users.repository.ts';
import type { Limiter, UserEventWriter } from './ports.ts';
import { recordAudit } from './privacy/privacy.use-case.ts';
import { normalizeEmail, type UserRecord, type UserRole } from './user.ts';

/** Who asks: the signed-in admin (from the service token). */
export interface AdminCaller {
  userId: string;
  tenantId: string;
}

export type InvitedRole = 'teacher' | 'admin' | 'student';

/** Sends an invitation mail (email-links.use-case.ts `issueInvitation`, wired in service.ts). */
export type InvitationIssuer = (input: {
  tenantId: string;
  tenantName: string;
  email: string;
  role: InvitedRole;
  invitedBy: string;
}) => Promise<void>;

export interface DistrictAdminDeps {
  district: DistrictRepository;
  users: UsersRepository;
  events: UserEventWriter;
  /** Absent: invitations answer 503. */
  issueInvitation?: InvitationIssuer;
  /** Invitations sent per admin. */
  inviteLimit: Limiter;
}

export const DISTRICT_MESSAGES = {
  notAdmin: 'Only an admin of this district can do this.',
  accountExists: 'An account with this email already exists.',
  removeSelf: 'You cannot remove your own account.',
  changeOwnRole: 'You cannot change your own role.',
  lastAdmin: 'The district needs at least one admin: make someone else an admin first.',
  studentToStaff: 'A student account cannot become staff: invite the person with a staff address instead.',
  disabled: 'This account was removed.',
  inviteUnavailable: 'Invitations cannot be sent right now.',
} as const;

export interface DistrictOverview extends DistrictTenant {
  counts: { student: number; teacher: number; admin: number; disabled: number };
}

async function ownDistrict(deps: DistrictAdminDeps, caller: AdminCaller): Promise<DistrictTenant> {
  const tenant = await deps.district.findTenant(caller.tenantId);
  // An individual's own space has no district to administer (make-admin refuses those).
  if (!tenant || tenant.kind === 'individual') throw new NotFoundError();
  return tenant;
}

export async function getDistrict(deps: DistrictAdminDeps, caller: AdminCaller): Promise<DistrictOverview> {
  const tenant = await ownDistrict(deps, caller);
  return { ...tenant, counts: await deps.district.countByRole(tenant.id) };
}

export async function listDistrictUsers(
  deps: DistrictAdminDeps,
  caller: AdminCaller,
  query: { search?: string; role?: UserRole; limit: number; after?: UserCursor },
): Promise<{ users: DistrictUser[]; next?: UserCursor }> {
  const tenant = await ownDistrict(deps, caller);
  return deps.district.listUsers(tenant.id, query);
}

export async function listInvitations(deps: DistrictAdminDeps, caller: AdminCaller): Promise<PendingInvitation[]> {
  const tenant = await ownDistrict(deps, caller);
  return deps.district.pendingInvitations(tenant.id);
}

export async function revokeInvitation(deps: DistrictAdminDeps, caller: AdminCaller, id: string): Promise<void> {
  const tenant = await ownDistrict(deps, caller);
  await deps.district.changeTenant(tenant.id, async (change) => {
    const revoked = await deps.district.revokeInvitation(change.tx, tenant.id, id);
    if (!revoked) throw new NotFoundError();
    await recordAudit(change.tx, {
      tenantId: tenant.id,
      actorId: caller.userId,
      actorRole: 'admin',
      action: 'change',
      resource: 'DELETE /api/district/invitations/{id}',
      targetIds: [],
      event: 'invitation.revoked',
      details: { email: revoked.email, role: revoked.role, invitation: id },
    });
  });
}

/**
 * Mails an invitation to join the district. The address need not be at the district's domains (a
 * teacher may use another one); an address that already has an account is refused (409).
 */
export async function inviteToDistrict(
  deps: DistrictAdminDeps,
  caller: AdminCaller,
  input: { email: string; role: InvitedRole },
): Promise<{ email: string; role: InvitedRole }> {
  const tenant = await ownDistrict(deps, caller);
  const limit = await deps.inviteLimit.consume(caller.userId);
  if (!limit.allowed) {
    throw new TooManyRequestsError(
      `Too many invitations. Please wait ${limit.retryAfterSeconds} seconds and try again.`,
      limit.retryAfterSeconds,
    );
  }
  const email = normalizeEmail(input.email);
  if (await deps.users.findByEmail(email)) throw new ConflictError(DISTRICT_MESSAGES.accountExists, 'account_exists');
  if (!deps.issueInvitation) throw new ServiceUnavailableError(DISTRICT_MESSAGES.inviteUnavailable);
  await deps.issueInvitation({
    tenantId: tenant.id,
    tenantName: tenant.name,
    email,
    role: input.role,
    invitedBy: caller.userId,
  });
  return { email, role: input.role };
}

/** The caller must still be an active admin of the tenant (a token outlives a demotion briefly). */
async function requireActiveAdmin(change: TenantChange, caller: AdminCaller): Promise<void> {
  const me = await change.findUser(caller.userId);
  if (!me || me.disabledAt || me.role !== 'admin') throw new ForbiddenError(DISTRICT_MESSAGES.notAdmin);
}

/**
 * "Remove": the account is disabled (it can no longer sign in), all its sessions end at once, and
 * UserUpdated (disabled) tells the other services. The user's classes, assessments and results
 * stay with the district. Removing a removed account changes nothing.
 */
export async function removeDistrictUser(deps: DistrictAdminDeps, caller: AdminCaller, userId: string): Promise<void> {
  await ownDistrict(deps, caller);
  if (userId === caller.userId) throw new ConflictError(DISTRICT_MESSAGES.removeSelf, 'cannot_remove_self');
  await deps.district.changeTenant(caller.tenantId, async (change) => {
    await requireActiveAdmin(change, caller);
    const user = await change.findUser(userId);
    if (!user) throw new NotFoundError();
    if (user.disabledAt) return;
    if (user.role === 'admin' && (await change.countActiveAdmins()) <= 1) {
      throw new ConflictError(DISTRICT_MESSAGES.lastAdmin, 'last_admin');
    }
    const disabled = await change.disable(user.id);
    await deps.events.updated(change.tx, disabled);
  });
}

/**
 * Promotes a teacher to admin or demotes an admin to teacher. A student never becomes staff (an
 * admin sees every student's results; make-admin refuses the same). A demoted admin's sessions
 * end, so that their admin rights stop at once rather than when their access token expires.
 */
export async function changeDistrictRole(
  deps: DistrictAdminDeps,
  caller: AdminCaller,
  userId: string,
  role: 'teacher' | 'admin',
): Promise<UserRecord> {
  await ownDistrict(deps, caller);
  if (userId === caller.userId) throw new ConflictError(DISTRICT_MESSAGES.changeOwnRole, 'cannot_change_own_role');
  return deps.district.changeTenant(caller.tenantId, async (change) => {
    await requireActiveAdmin(change, caller);
    const user = await change.findUser(userId);
    if (!user) throw new NotFoundError();
    if (user.disabledAt) throw new ConflictError(DISTRICT_MESSAGES.disabled, 'user_disabled');
    if (user.role === 'student') throw new ConflictError(DISTRICT_MESSAGES.studentToStaff, 'student_cannot_be_staff');
    if (user.role === role) return user;
    if (user.role === 'admin' && (await change.countActiveAdmins()) <= 1) {
      throw new ConflictError(DISTRICT_MESSAGES.lastAdmin, 'last_admin');
    }
    const updated = await change.setRole(user.id, role);
    if (user.role === 'admin') await deps.district.revokeSessions(change.tx, user.id);
    await deps.events.updated(change.tx, updated);
    return updated;
  });
}
