// The identity service: accounts, tenants, sessions and sign-in (password, Google / OpenID Connect).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServiceDefinition } from '@checkpoint/service-kit';
import { authRouter } from './api/auth.router.ts';
import { googleRouter } from './api/google.router.ts';
import { mountInternalRoutes } from './api/internal.routes.ts';
import { sessionCookies } from './api/session-cookies.ts';
import { cookieSecure, identityConfigSchema } from './config.ts';
import { oidcRepository } from './data-access/oidc.repository.ts';
import { createPrisma } from './data-access/prisma.ts';
import { deleteExpiredRateLimits, postgresLimiter } from './data-access/rate-limits.ts';
import { sessionsRepository } from './data-access/sessions.repository.ts';
import { signingKeysRepository } from './data-access/signing-keys.repository.ts';
import { DuplicateEmailError, usersRepository } from './data-access/users.repository.ts';
import { formatDemoAccounts, seedDemo } from './domain/demo-seed.use-case.ts';
import { loadKeyRing } from './domain/key-ring.ts';
import { OidcClients } from './domain/oidc.use-case.ts';
import { userEventWriter } from './messaging/user-events.publisher.ts';

const HOUR_MS = 3_600_000;
/** Sign-in attempts allowed per address and per account, as a multiple of those per account at one address. */
const LOGIN_CEILING_FACTOR = 10;

export const identityService: ServiceDefinition<typeof identityConfigSchema> = {
  name: 'identity',
  configSchema: identityConfigSchema,
  migrationsDir: path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations'),

  async create(ctx) {
    const { config } = ctx;
    const schema = config.DATABASE_SCHEMA ?? ctx.name;
    const db = createPrisma(ctx.pool, schema);
    const users = usersRepository(db);
    const sessions = sessionsRepository(db);
    const oidc = oidcRepository(db);
    const events = userEventWriter(ctx.name);
    const keyRing = await loadKeyRing(signingKeysRepository(db), config.ACCESS_TOKEN_TTL_SECONDS);
    const cookies = sessionCookies(cookieSecure(config));
    const limiter = (keyPrefix: string, points: number) =>
      postgresLimiter(ctx.pool, { schema, keyPrefix, points, durationSeconds: 60 });

    const accounts = { users, events };
    const sessionDeps = {
      sessions,
      users,
      signer: keyRing.signer,
      policy: {
        idleMs: config.REFRESH_IDLE_HOURS * HOUR_MS,
        absoluteMs: config.REFRESH_ABSOLUTE_DAYS * 24 * HOUR_MS,
        graceMs: config.REFRESH_REUSE_GRACE_SECONDS * 1000,
      },
    };
    const authDeps = {
      accounts,
      sessions: sessionDeps,
      cookies,
      signInLimits: {
        perAccountAtAddress: limiter('login_account_ip', config.RATE_LIMIT_LOGIN_PER_MINUTE),
        // Ceilings, not locks: a school shares one address; many addresses are needed to reach an account's.
        perAddress: limiter('login_ip', config.RATE_LIMIT_LOGIN_PER_MINUTE * LOGIN_CEILING_FACTOR),
        perAccount: limiter('login_account', config.RATE_LIMIT_LOGIN_PER_MINUTE * LOGIN_CEILING_FACTOR),
      },
      profileLimits: {
        perUser: limiter('profile_user', config.RATE_LIMIT_PROFILE_PER_MINUTE),
        perAddress: limiter('profile_ip', config.RATE_LIMIT_PROFILE_PER_MINUTE * 3),
      },
      signUpLimit: limiter('signup_ip', config.RATE_LIMIT_SIGNUP_PER_MINUTE),
    };
    const oidcClients = new OidcClients({
      publicUrl: config.PUBLIC_URL,
      platform: config.OIDC_CLIENT_ID
        ? { issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID, clientSecret: config.OIDC_CLIENT_SECRET ?? '' }
        : undefined,
    });

    let housekeeping: NodeJS.Timeout | undefined;
    /** Aborted when shutdown begins: requests held for revoked sessions answer at once. */
    const drain = new AbortController();
    return {
      routers: [
        authRouter(authDeps),
        googleRouter({
          accounts,
          sessions: sessionDeps,
          cookies,
          oidc,
          clients: oidcClients,
          secure: cookieSecure(config),
          logger: ctx.logger,
          startLimit: limiter('oidc_start_ip', config.RATE_LIMIT_OIDC_START_PER_MINUTE),
        }),
      ],
      extra: (app) =>
        mountInternalRoutes(app, {
          sessions: sessionDeps,
          jwks: () => keyRing.jwks(),
          accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          draining: drain.signal,
        }),
      draining: () => drain.abort(),
      async start() {
        // Users registered before the user events carried tenant_kind: publish it once, so that
        // the class service knows who is on the Free Trial.
        const republished = await users.backfillOnce('user-events:tenant_kind', (tx, user) => events.updated(tx, user));
        if (republished > 0) ctx.logger.info({ users: republished }, 'republished UserUpdated with tenant_kind');
        if (config.DEMO_SEED) {
          try {
            const demo = await seedDemo(accounts, {
              ...(config.DEMO_PASSWORD ? { password: config.DEMO_PASSWORD } : {}),
            });
            // stdout on purpose: a newcomer running `npm start` needs these to sign in.
            if (demo) console.log(`\n${formatDemoAccounts(demo)}\n`);
          } catch (err) {
            // Another replica seeded at the same moment.
            if (!(err instanceof DuplicateEmailError)) throw err;
          }
        }
        housekeeping = setInterval(() => {
          void Promise.all([sessions.deleteExpired(), oidc.deleteExpired(), deleteExpiredRateLimits(ctx.pool)]).catch(
            (err) => ctx.logger.warn({ err }, 'identity housekeeping failed'),
          );
        }, HOUR_MS);
        housekeeping.unref();
      },
      async stop() {
        if (housekeeping) clearInterval(housekeeping);
        await db.$disconnect();
      },
    };
  },
};
