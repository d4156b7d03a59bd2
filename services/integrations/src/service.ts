// The integrations service: the LTI 1.3 tool (its keys, each district's platform registrations,
// login and launch), docs/adr/014-lti.md.
import path from 'node:path';
import { PollingLoop, privacySubscription, RetentionJob, type ServiceDefinition } from '@checkpoint/service-kit';
import express from 'express';
import type pg from 'pg';
import { deepLinkingRouter } from './api/deep-linking.router.ts';
import { dynamicRegistrationRouter } from './api/dynamic-registration.router.ts';
import { ltiRouter } from './api/lti.router.ts';
import { registrationsRouter } from './api/registrations.router.ts';
import { rosterSyncRouter } from './api/roster-sync.router.ts';
import { scoresRouter } from './api/scores.router.ts';
import { integrationsConfigSchema, type IntegrationsConfig } from './config.ts';
import { deepLinksRepository } from './data-access/deep-links.repository.ts';
import { registrationLinksRepository } from './data-access/registration-links.repository.ts';
import { launchesRepository } from './data-access/launches.repository.ts';
import { peersClient } from './data-access/peers.client.ts';
import { registrationsRepository } from './data-access/registrations.repository.ts';
import { rostersRepository } from './data-access/rosters.repository.ts';
import { toolKeysRepository } from './data-access/tool-keys.repository.ts';
import { deepLinkingUseCases } from './domain/deep-linking.use-case.ts';
import { dynamicRegistrationUseCases } from './domain/dynamic-registration.use-case.ts';
import { ltiUseCases } from './domain/lti.use-case.ts';
import { platformKeys } from './domain/platform-keys.ts';
import { createPlatformTokens } from './domain/platform-token.ts';
import { scoreUseCases } from './domain/scores.use-case.ts';
import { registrationUseCases } from './domain/registrations.use-case.ts';
import { rosterSyncUseCases } from './domain/roster-sync.use-case.ts';
import { toolKeyRing } from './domain/tool-keys.ts';
import { assessmentSubscription } from './messaging/assessment-events.consumer.ts';
import { integrationsPrivacy } from './messaging/privacy.consumer.ts';
import { scoreEventsSubscription } from './messaging/score-events.consumer.ts';

/** LTI Dynamic Registration and its one-time links (also the operator's CLI's). */
export const dynamicRegistration = (config: IntegrationsConfig, pool: pg.Pool) =>
  dynamicRegistrationUseCases(registrationLinksRepository(pool), {
    publicUrl: config.PUBLIC_URL,
    linkTtlSeconds: config.LTI_REGISTRATION_LINK_TTL_SECONDS,
    allowLoopback: config.LTI_ALLOW_LOOPBACK,
    timeoutMs: config.LTI_REGISTRATION_TIMEOUT_MS,
  });

export const integrationsService: ServiceDefinition<typeof integrationsConfigSchema> = {
  name: 'integrations',
  configSchema: integrationsConfigSchema,
  migrationsDir: path.join(import.meta.dirname, '..', 'migrations'),
  create({ config, pool, logger, tokens }) {
    const registrations = registrationsRepository(pool);
    const keys = toolKeyRing(toolKeysRepository(pool));
    // Identity signs the LMS user in; class holds the course's class (their internal routes).
    const peers = peersClient({
      tokens,
      identityUrl: config.IDENTITY_URL,
      classUrl: config.CLASS_URL,
      timeoutMs: config.LTI_PEER_TIMEOUT_MS,
    });
    // The platform's access tokens (AGS, NRPS), one cache for both.
    const platformTokens = createPlatformTokens({
      signingKey: () => keys.signingKey(),
      allowLoopback: config.LTI_ALLOW_LOOPBACK,
      timeoutMs: config.LTI_PLATFORM_TIMEOUT_MS,
    });
    // AGS: scores posted to the LMS by a worker on every replica (rows claimed with skip locked).
    const scores = scoreUseCases(pool, platformTokens, {
      allowLoopback: config.LTI_ALLOW_LOOPBACK,
      timeoutMs: config.LTI_SCORE_TIMEOUT_MS,
      maxAttempts: config.LTI_SCORE_MAX_ATTEMPTS,
      backoffMs: config.LTI_SCORE_BACKOFF_MS,
      maxBackoffMs: config.LTI_SCORE_MAX_BACKOFF_MS,
    });
    const scoreWorker = new PollingLoop({
      name: 'LTI score worker',
      pass: () => scores.sendDue(),
      intervalMs: config.LTI_SCORE_POLL_MS,
      backoffMs: (failures) => Math.min(60_000, 1_000 * 2 ** failures),
      onError: (err) => logger.warn({ err }, 'LTI score worker pass failed'),
      stopTimeoutMs: config.LTI_SCORE_TIMEOUT_MS + 1_000,
    });
    const deepLinks = deepLinksRepository(pool);
    const deepLinking = deepLinkingUseCases(deepLinks, registrations, keys, {
      publicUrl: config.PUBLIC_URL,
      requestTtlSeconds: config.LTI_DEEP_LINK_TTL_SECONDS,
      responseTtlSeconds: 300,
    });
    const lti = ltiUseCases(
      registrations,
      launchesRepository(pool),
      platformKeys({ allowLoopback: config.LTI_ALLOW_LOOPBACK, timeoutMs: config.LTI_JWKS_TIMEOUT_MS }),
      {
        publicUrl: config.PUBLIC_URL,
        stateTtlSeconds: config.LTI_STATE_TTL_SECONDS,
        clockToleranceSeconds: config.LTI_CLOCK_TOLERANCE_SECONDS,
        allowLoopback: config.LTI_ALLOW_LOOPBACK,
      },
      peers,
      deepLinks,
      scores,
    );
    // NRPS: the course's learners brought into its class (the platform's token, then identity and class).
    const rosters = rosterSyncUseCases({
      rosters: rostersRepository(pool),
      registrations,
      peers,
      tokens: platformTokens,
      allowLoopback: config.LTI_ALLOW_LOOPBACK,
      timeoutMs: config.LTI_PLATFORM_TIMEOUT_MS,
      logger,
    });
    const retention = new RetentionJob(pool, integrationsPrivacy, {
      intervalMs: config.PRIVACY_RETENTION_INTERVAL_MS,
      logger,
    });
    return {
      routers: [
        ltiRouter(lti, keys, {
          stateTtlSeconds: config.LTI_STATE_TTL_SECONDS,
          afterLanding: (launch, landing) => rosters.afterInstructorLaunch(launch, landing),
          keepDeepLink: deepLinking.keep,
        }),
        deepLinkingRouter(deepLinking),
        rosterSyncRouter(rosters),
        registrationsRouter(
          registrationUseCases(registrations, { allowLoopback: config.LTI_ALLOW_LOOPBACK }),
          config.PUBLIC_URL,
        ),
        dynamicRegistrationRouter(dynamicRegistration(config, pool)),
        scoresRouter(scores),
      ],
      // A platform posts the login and the launch as an HTML form.
      extra: (app) => app.use('/api/lti', express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 20 })),
      // The assessments a teacher may link (deep linking) and a resource link lands on; AGS scores.
      subscriptions: [
        privacySubscription(pool, integrationsPrivacy),
        assessmentSubscription(pool),
        scoreEventsSubscription(pool, () => scoreWorker.wake()),
      ],
      start: async () => {
        retention.start();
        void scoreWorker.start();
      },
      stop: async () => {
        await scoreWorker.stop();
        await retention.stop();
      },
    };
  },
};
