// The local copy of identity's users: only what this service shows (names, email, role).
import type { PersonName } from '../domain/class.ts';
import type { Db, Tx } from './prisma.ts';

export interface PersonRecord {
  userId: string;
  tenantId: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
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
  };
}

/** Inserts or replaces one person (inside the consumer's inbox transaction). */
export async function upsertPerson(tx: Tx, person: PersonRecord): Promise<void> {
  const { userId, ...rest } = person;
  await tx.person.upsert({
    where: { userId },
    create: { userId, ...rest },
    update: { ...rest, updatedAt: new Date() },
  });
}
