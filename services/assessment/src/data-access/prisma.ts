// The Prisma client of this service (generated from its prisma/schema.prisma), on the service's
// pool; what every service's client shares is in @checkpoint/service-kit (prismaFactory).
import { prismaFactory } from '@checkpoint/service-kit';
import { Prisma, PrismaClient } from '../generated/prisma/client.ts';

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;

export const createPrisma = prismaFactory(PrismaClient);
