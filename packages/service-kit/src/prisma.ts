// What every service's Prisma client has in common: it runs on the service's own pool through the
// pg adapter (search_path = the service's schema). Each service keeps only what is its own: the
// client generated from its prisma/schema.prisma (src/data-access/prisma.ts).
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';
import type pg from 'pg';

/** A generated PrismaClient class (each service has its own, from its schema). */
export type PrismaClientClass<Client> = new (options: { adapter: PrismaPg }) => Client;

/** `createPrisma(pool, schema)` for a service's generated client. */
export function prismaFactory<Client>(
  PrismaClient: PrismaClientClass<Client>,
): (pool: pg.Pool, schema: string) => Client {
  return (pool, schema) => new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
}

/** The write broke a unique constraint (Prisma's P2002). */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof PrismaClientKnownRequestError && err.code === 'P2002';
}
