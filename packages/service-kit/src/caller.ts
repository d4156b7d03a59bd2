// The caller as established by the gateway. Services trust these headers only because the gateway
// strips any client-sent copies and is the only ingress (NetworkPolicy in cluster mode).
import type { Request } from 'express';

export const ROLES = ['student', 'teacher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const CALLER_HEADERS = {
  userId: 'x-checkpoint-user-id',
  role: 'x-checkpoint-user-role',
  tenantId: 'x-checkpoint-tenant-id',
  sessionId: 'x-checkpoint-session-id',
} as const;

export interface Caller {
  userId: string;
  role: Role;
  tenantId: string;
  sessionId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the caller from gateway headers; undefined when absent or malformed. */
export function readCaller(req: Request): Caller | undefined {
  const userId = req.header(CALLER_HEADERS.userId);
  const role = req.header(CALLER_HEADERS.role);
  const tenantId = req.header(CALLER_HEADERS.tenantId);
  const sessionId = req.header(CALLER_HEADERS.sessionId) ?? '';
  if (!userId || !UUID.test(userId) || !tenantId || !UUID.test(tenantId)) return undefined;
  if (!role || !(ROLES as readonly string[]).includes(role)) return undefined;
  return { userId, role: role as Role, tenantId, sessionId };
}
