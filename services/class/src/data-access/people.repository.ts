// The local copy of identity's users: only what this service shows (names, email, role) and the
// kind of their tenant (the Free Trial limits).
import type { PersonName } from '../domain/class.ts';
import type { Db, Tx } from './prisma.ts';

export interface PersonRecord {
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  /** district | school | individual; null when not known yet. */
  tenantKind: string | null;
}

export function peopleRepository(db: Db) {
  return {
    async byIds(ids: string[]): Promise<Map<string, PersonRecord>> {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return new Map();
      const rows = await db.person.findMany({ where: { userId: { in: unique } } });
      return new Map(rows.map((r) => [r.userId, r]));
    },

    async namesOf(ids: string[]): Promise<Map<string, PersonName>> {
      return this.byIds(ids);
    },

    /** The kind of the person's tenant; null when the person or the kind is not known yet. */
    async tenantKindOf(userId: string): Promise<string | null> {
      const row = await db.person.findUnique({ where: { userId }, select: { tenantKind: true } });
      return row?.tenantKind ?? null;
    },
  };
}

/**
 * Inserts or replaces one person (inside the consumer's inbox transaction). An event without the
 * tenant's kind (published before identity sent it) leaves a known kind as it is.
 */
export async function upsertPerson(tx: Tx, person: PersonRecord): Promise<void> {
  const { userId, tenantKind, ...rest } = person;
  await tx.person.upsert({
    where: { userId },
    create: { userId, ...rest, tenantKind },
    update: { ...rest, ...(tenantKind ? { tenantKind } : {}), updatedAt: new Date() },
  });
}
