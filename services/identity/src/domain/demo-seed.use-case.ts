// Demo accounts for a first run (DEMO_SEED=true): a district with its admin, one teacher, one
// student and a few classmates (their class, assessment and results are made through the public
// API afterwards: app/src/demo-data.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import type { UsersRepository } from '../data-access/users.repository.ts';
import { hashPassword } from './password.ts';
import type { UserEventWriter } from './ports.ts';
import type { UserRole } from './user.ts';

export const DEMO_DOMAIN = 'demo.checkpoint.school';

interface DemoAccount {
  email: string;
  password: string;
}

export interface DemoAccounts {
  admin: DemoAccount;
  teacher: DemoAccount;
  student: DemoAccount;
}

/** The demo student's classmates: not printed, they only give the demo class some results. */
export const DEMO_CLASSMATES = [
  { firstName: 'Ava', lastName: 'Lopez' },
  { firstName: 'Ben', lastName: 'Okafor' },
  { firstName: 'Chloe', lastName: 'Nguyen' },
].map((name) => ({ ...name, email: `${name.firstName}.${name.lastName}@${DEMO_DOMAIN}`.toLowerCase() }));

/** Creates the demo accounts when there are no users yet; undefined when it did nothing. */
export async function seedDemo(
  deps: { users: UsersRepository; events: UserEventWriter },
  options: { password?: string },
): Promise<DemoAccounts | undefined> {
  if ((await deps.users.countUsers()) > 0) return undefined;
  const accounts: { role: UserRole; email: string; firstName: string; lastName: string; password: string }[] = [
    {
      // The district admin: sees the district's figures on /admin.
      role: 'admin',
      email: `admin@${DEMO_DOMAIN}`,
      firstName: 'Demo',
      lastName: 'Admin',
      password: options.password ?? randomPassword(),
    },
    {
      role: 'teacher',
      email: `teacher@${DEMO_DOMAIN}`,
      firstName: 'Demo',
      lastName: 'Teacher',
      password: options.password ?? randomPassword(),
    },
    {
      role: 'student',
      email: `student@${DEMO_DOMAIN}`,
      firstName: 'Demo',
      lastName: 'Student',
      password: options.password ?? randomPassword(),
    },
    ...DEMO_CLASSMATES.map((classmate) => ({
      role: 'student' as const,
      ...classmate,
      password: options.password ?? randomPassword(),
    })),
  ];
  let tenantId = await deps.users.findTenantIdByDomain(DEMO_DOMAIN);
  for (const account of accounts) {
    const user = await deps.users.create(
      {
        id: randomUUID(),
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        role: account.role,
        passwordHash: await hashPassword(account.password),
        // The demo accounts' addresses are the product's own: treated as proven.
        emailVerifiedAt: new Date(),
        ...(tenantId
          ? { tenantId }
          : { newTenant: { name: 'Demo District', kind: 'district', emailDomains: [DEMO_DOMAIN] } }),
      },
      (tx, created) => deps.events.registered(tx, created),
    );
    tenantId = user.tenantId;
  }
  const [admin, teacher, student] = accounts.map(({ email, password }) => ({ email, password })) as [
    DemoAccount,
    DemoAccount,
    DemoAccount,
    ...DemoAccount[],
  ];
  return { admin, teacher, student };
}

function randomPassword(): string {
  return randomBytes(9).toString('base64url');
}

/** A small boxed block for stdout. */
export function formatDemoAccounts(accounts: DemoAccounts): string {
  const lines = [
    'Demo accounts:',
    `  admin    ${accounts.admin.email}  /  password ${accounts.admin.password}`,
    `  teacher  ${accounts.teacher.email}  /  password ${accounts.teacher.password}`,
    `  student  ${accounts.student.email}  /  password ${accounts.student.password}`,
  ];
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '+' + '-'.repeat(width + 2) + '+';
  return [bar, ...lines.map((l) => `| ${l.padEnd(width)} |`), bar].join('\n');
}
