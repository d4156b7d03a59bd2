// The identity service: accounts, tenants, sessions and sign-in (password, Google / OpenID Connect).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mailQueueMigration } from '@checkpoint/mail';
import { PollingLoop, type ServiceDefinition } from '@checkpoint/service-kit';
import { authRouter } from './api/auth.router.ts';
import { districtRouter } from './api/district.router.ts';
import { rosterRouter } from './api/roster.router.ts';
import { googleRouter } from './api/google.router.ts';
import { ssoRouter } from './api/sso.router.ts';
import { invitationsRouter } from './api/invitations.router.ts';
import { studentLoginsRouter } from './api/student-logins.router.ts';
import { studentLoginsRepository } from './data-access/student-logins.repository.ts';
import { mountInternalRoutes } from './api/internal.routes.ts';
import { sessionCookies } from './api/session-cookies.ts';
import { cookieSecure, identityConfigSchema } from './config.ts';
import { oidcRepository } from './data-access/oidc.repository.ts';
import { districtRepository } from './data-access/district.repository.ts';
import { rosterRepository } from './data-access/roster.repository.ts';
import { rosterImports } from './domain/roster/roster-import.use-case.ts';
import { createPrisma } from './data-access/prisma.ts';
import { deleteExpiredRateLimits, postgresLimiter } from './data-access/rate-limits.ts';
import { deleteExpiredExports, recordAudit } from './domain/privacy/privacy.use-case.ts';
import { sessionsRepository } from './data-access/sessions.repository.ts';
import { signingKeysRepository } from './data-access/signing-keys.repository.ts';
import { DuplicateEmailError, usersRepository } from './data-access/users.repository.ts';
import { formatDemoAccounts, seedDemo } from './domain/demo-seed.use-case.ts';
import { loadKeyRing } from './domain/key-ring.ts';
import { OidcClients } from './domain/oidc.use-case.ts';
import { secretBox } from './domain/secret-box.ts';
import { assertPasswordSignInAllowed, resealSecrets } from './domain/sso.use-case.ts';
import { issueInvitation, sendRosterWelcome } from './domain/email-links.use-case.ts';
import { emailWiring } from './email.ts';
import { coTeacherInvitationsSubscription } from './messaging/class-events.consumer.ts';
import { membershipDeps } from './membership.ts';
import { userEventWriter } from './messaging/user-events.publisher.ts';
import { privacyWiring } from './privacy.ts';
import { ltiHandoffRouter, mountLtiInternalRoutes } from './api/lti.routes.ts';
import { ltiRepository } from './data-access/lti.repository.ts';

const HOUR_MS = 3_600_000;
/** How long the one-time sign-in of an LTI launch waits for the browser to redeem it. */
const LTI_HANDOFF_TTL_SECONDS = 120;
/** The window of a student login's lock (wrong pictures or words), in seconds. */
const STUDENT_LOCK_SECONDS = 900;
/** Wrong pictures or words per class code in that window, as a multiple of those per student. */
const CLASS_CODE_FACTOR = 6;
/** Sign-in attempts allowed per address and per account, as a multiple of those per account at one address. */
const LOGIN_CEILING_FACTOR = 10;

export const identityService: ServiceDefinition<typeof identityConfigSchema> = {
  name: 'identity',
  configSchema: identityConfigSchema,
  migrationsDir: path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'migrations'),
  // The mail queue (its 004_email.sql made the same table before it was shared).
  packageMigrations: [mailQueueMigration],

  async create(ctx) {
    const { config } = ctx;
    const schema = config.DATABASE_SCHEMA ?? ctx.name;
    const db = createPrisma(ctx.pool, schema);
    const users = usersRepository(db);
    const sessions = sessionsRepository(db);
    const oidc = oidcRepository(db);
    // SSO client secrets at rest: AES-256-GCM under SECRETS_KEY (the previous key still opens).
    const secrets = secretBox({ current: config.SECRETS_KEY, previous: config.SECRETS_KEY_PREVIOUS });
    const events = userEventWriter(ctx.name);
    const keyRing = await loadKeyRing(signingKeysRepository(db), config.ACCESS_TOKEN_TTL_SECONDS);
    const cookies = sessionCookies(cookieSecure(config));
    const limiter = (keyPrefix: string, points: number) =>
      postgresLimiter(ctx.pool, { schema, keyPrefix, points, durationSeconds: 60 });

    // Mail and the one-time email links (verification, sign-up by link, reset, invitation).
    const email = emailWiring({
      db,
      pool: ctx.pool,
      users,
      sessions,
      events,
      publicUrl: config.PUBLIC_URL,
      mail: { SMTP_URL: config.SMTP_URL, MAIL_FROM: config.MAIL_FROM },
      logger: ctx.logger,
      limiter,
      perEmailPerMinute: config.RATE_LIMIT_EMAIL_PER_MINUTE,
      passwordChangesPerMinute: config.RATE_LIMIT_LOGIN_PER_MINUTE,
    });
    const accounts = {
      users,
      events,
      sendEmailChange: email.sendEmailChange,
      pendingEmailChange: email.pendingEmailChange,
    };
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
    // District membership is proven (a mailed link, an invitation), never inferred from the domain.
    const membership = membershipDeps({
      db,
      accounts,
      emailLinks: email.links,
      mailLimit: limiter('signup_mail_address', config.RATE_LIMIT_EMAIL_PER_MINUTE),
      assertPasswordSignInAllowed: (tenantId) => assertPasswordSignInAllowed({ oidc }, tenantId),
    });
    const authDeps = {
      accounts,
      // A district that turned password sign-in off: its members use its provider (D7).
      passwordSignInAllowed: membership.assertPasswordSignInAllowed,
      membership,
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

    // Sign-in from a verified LTI launch (docs/adr/014-lti.md): integrations calls, the browser redeems.
    const lti = ltiRepository(db);
    const ltiDeps = { ...accounts, lti, publicUrl: config.PUBLIC_URL, handoffTtlSeconds: LTI_HANDOFF_TTL_SECONDS };

    let stopping = false;
    const running = () => !stopping;
    const housekeeping = new PollingLoop({
      name: 'identity housekeeping',
      pass: async () => {
        // Settled, not all: one failing must not leave the others running unwaited for.
        const results = await Promise.allSettled([
          sessions.deleteExpired({ running }),
          oidc.deleteExpired({ running }),
          lti.deleteExpired(),
          deleteExpiredRateLimits(ctx.pool, { running }),
          email.tokens.deleteExpired({ running }),
          // Exported data does not outlive its download window.
          deleteExpiredExports(ctx.pool, { running }),
        ]);
        for (const result of results)
          if (result.status === 'rejected') ctx.logger.warn({ err: result.reason }, 'identity housekeeping failed');
      },
      intervalMs: HOUR_MS,
      pace: 'fixed-rate',
    });
    // Export, deletion, retention and audit log (docs/adr/009-privacy-operations.md).
    const privacy = privacyWiring(ctx);
    /** Aborted when shutdown begins: requests held for revoked sessions answer at once. */
    const drain = new AbortController();
    const roster = rosterImports({
      roster: rosterRepository(db),
      events,
      source: ctx.name,
      logger: ctx.logger,
      uploadLimitBytes: config.ROSTER_UPLOAD_LIMIT_BYTES,
      previewMemoryMb: config.ROSTER_PREVIEW_MEMORY_MB,
      audit: (entry) => db.$transaction((tx) => recordAudit(tx, entry)),
      welcome: async (tx, created) => {
        const district = await email.tokens.findTenantInfo(created[0]!.tenantId);
        if (district) await sendRosterWelcome(email.links, tx, created, district);
      },
    });
    return {
      routers: [
        privacy.router,
        rosterRouter(roster, config.ROSTER_UPLOAD_LIMIT_BYTES),
        authRouter(authDeps),
        email.router(sessionDeps, cookies),
        // Students without email: the teacher's student logins and cards, class-code and card sign-in.
        studentLoginsRouter({
          logins: {
            logins: studentLoginsRepository(db),
            events,
            source: ctx.name,
            publicUrl: config.PUBLIC_URL,
            cardDays: config.LOGIN_CARD_DAYS,
            limits: {
              perStudent: postgresLimiter(ctx.pool, {
                schema,
                keyPrefix: 'student_login',
                points: config.STUDENT_LOGIN_FAILURES,
                durationSeconds: STUDENT_LOCK_SECONDS,
              }),
              perClassCode: postgresLimiter(ctx.pool, {
                schema,
                keyPrefix: 'student_login_class',
                points: config.STUDENT_LOGIN_FAILURES * CLASS_CODE_FACTOR,
                durationSeconds: STUDENT_LOCK_SECONDS,
              }),
              perAddress: limiter('class_code_ip', config.RATE_LIMIT_LOGIN_PER_MINUTE * LOGIN_CEILING_FACTOR),
            },
          },
          sessions: sessionDeps,
          cookies,
        }),
        invitationsRouter({
          membership,
          sessions: sessionDeps,
          cookies,
          limit: limiter('invitation_ip', config.RATE_LIMIT_SIGNUP_PER_MINUTE),
        }),
        districtRouter({
          district: districtRepository(db),
          users,
          events,
          inviteLimit: limiter('invite_admin', config.RATE_LIMIT_INVITE_PER_MINUTE),
          issueInvitation: (input) => issueInvitation(email.links, input),
        }),
        ssoRouter({
          oidc,
          secrets,
          publicUrl: config.PUBLIC_URL,
          lookupLimit: limiter('sso_lookup_ip', config.RATE_LIMIT_SSO_LOOKUP_PER_MINUTE),
        }),
        ltiHandoffRouter({ lti, users, sessions: sessionDeps, cookies }),
        googleRouter({
          accounts,
          sessions: sessionDeps,
          cookies,
          oidc,
          clients: oidcClients,
          secrets,
          secure: cookieSecure(config),
          logger: ctx.logger,
          startLimit: limiter('oidc_start_ip', config.RATE_LIMIT_OIDC_START_PER_MINUTE),
        }),
      ],
      extra: (app) => {
        app.use(privacy.audit);
        mountInternalRoutes(app, {
          sessions: sessionDeps,
          jwks: () => keyRing.jwks(),
          accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
          draining: drain.signal,
        });
        mountLtiInternalRoutes(app, ltiDeps);
      },
      subscriptions: [
        privacy.subscription,
        // A class's owner invited an address as a co-teacher: the district's invitation, or a refusal.
        coTeacherInvitationsSubscription(db, { links: email.links, source: ctx.name }),
      ],
      draining: () => drain.abort(),
      async start() {
        const interrupted = await roster.recoverInterrupted();
        if (interrupted > 0)
          ctx.logger.warn({ imports: interrupted }, 'roster imports cut off by a restart marked failed');
        privacy.start();
        await email.start();
        // Users registered before the user events carried tenant_kind: publish it once, so that
        // the class service knows who is on the Free Trial.
        const republished = await users.backfillOnce('user-events:tenant_kind', (tx, user) => events.updated(tx, user));
        if (republished > 0) ctx.logger.info({ users: republished }, 'republished UserUpdated with tenant_kind');
        // SSO secrets still plain (before migration 005) or sealed under SECRETS_KEY_PREVIOUS.
        const sealed = await resealSecrets({ oidc, secrets });
        if (sealed.resealed > 0) ctx.logger.info(sealed, 'sealed SSO client secrets under SECRETS_KEY');
        if (sealed.unreadable > 0)
          ctx.logger.warn(
            sealed,
            'SSO client secrets sealed under an unknown key: set SECRETS_KEY_PREVIOUS, or save them again',
          );
        if (!secrets.ready && (await oidc.allConnections()).length > 0)
          ctx.logger.warn('SSO connections exist but SECRETS_KEY is not set: their sign-in is off until it is');
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
        void housekeeping.start();
      },
      async stop() {
        stopping = true;
        // Ends after the batch in flight.
        await housekeeping.stop();
        await privacy.stop();
        // A roster import being applied stops after its current batch (one transaction); applying it again resumes.
        await roster.stop();
        await email.stop();
        await db.$disconnect();
      },
    };
  },
};
