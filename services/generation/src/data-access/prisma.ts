// The Prisma client of this service, on the service's pool (search_path = its schema).
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

export function createPrisma(pool: pg.Pool, schema: string): Db {
  return new PrismaClient({ adapter: new PrismaPg(pool, { schema }) });
}

export function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002';
}
