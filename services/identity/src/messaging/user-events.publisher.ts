// The identity service's facts, written to its outbox in the business transaction.
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  enqueueEvent,
  NotificationPreferencesSchema,
  UserRegisteredSchema,
  UserUpdatedSchema,
} from '@checkpoint/events';
import type { UserEventWriter } from '../domain/ports.ts';
import { readPreferences, type UserRecord } from '../domain/user.ts';

function fields(user: UserRecord) {
  return {
    userId: user.id,
    tenantId: user.tenantId,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    role: user.role,
    // The class service enforces the Free Trial limits on teachers of individual tenants.
    tenantKind: user.tenantKind,
    // The analytics service's digest acts on the switches (docs/architecture.md, notifications).
    notifications: notificationsOf(user),
    occurredAt: timestampFromDate(new Date()),
  };
}

function notificationsOf(user: UserRecord) {
  const { emailNotifications, assessmentReminders, studentSubmissions } = readPreferences(user.preferences);
  return create(NotificationPreferencesSchema, { emailNotifications, assessmentReminders, studentSubmissions });
}

export function userEventWriter(source: string): UserEventWriter {
  return {
    async registered(tx, user) {
      await enqueueEvent(tx, {
        source,
        schema: UserRegisteredSchema,
        message: create(UserRegisteredSchema, fields(user)),
        key: user.id,
        tenantId: user.tenantId,
      });
    },
    async updated(tx, user) {
      await enqueueEvent(tx, {
        source,
        schema: UserUpdatedSchema,
        message: create(UserUpdatedSchema, { ...fields(user), disabled: user.disabledAt !== null }),
        key: user.id,
        tenantId: user.tenantId,
      });
    },
  };
}
