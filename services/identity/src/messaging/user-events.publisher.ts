// The identity service's facts, written to its outbox in the business transaction.
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { enqueueEvent, UserRegisteredSchema, UserUpdatedSchema } from '@checkpoint/events';
import type { UserEventWriter } from '../domain/ports.ts';
import type { UserRecord } from '../domain/user.ts';

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
    occurredAt: timestampFromDate(new Date()),
  };
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
        message: create(UserUpdatedSchema, fields(user)),
        key: user.id,
        tenantId: user.tenantId,
      });
    },
  };
}
