// The integrations service: the LTI 1.3 tool (its keys, each district's platform registrations,
// login and launch), docs/adr/014-lti.md.
import path from 'node:path';
import { privacySubscription, RetentionJob, type ServiceDefinition } from '@checkpoint/service-kit';
import express from 'express';
import type pg from 'pg';
import { dynamicRegistrationRouter } from './api/dynamic-registration.router.ts';
import { ltiRouter } from './api/lti.router.ts';
import { registrationsRouter } from './api/registrations.router.ts';
import { integrationsConfigSchema, type IntegrationsConfig } from './config.ts';
import { registrationLinksRepository } from './data-access/registration-links.repository.ts';
import { launchesRepository } from './data-access/launches.repository.ts';
import { peersClient } from './data-access/peers.client.ts';
import { registrationsRepository } from './data-access/registrations.repository.ts';
import { toolKeysRepository } from './data-access/tool-keys.repository.ts';
import { dynamicRegistrationUseCases } from './domain/dynamic-registration.use-case.ts';
import { ltiUseCases } from './domain/lti.use-case.ts';
import { platformKeys } from './domain/platform-keys.ts';
import { registrationUseCases } from './domain/registrations.use-case.ts';
import { toolKeyRing } from './domain/tool-keys.ts';
import { integrationsPrivacy } from './messaging/privacy.consumer.ts';

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
    const lti = ltiUseCases(
      registrations,
      launchesRepository(pool),
      platformKeys({ allowLoopback: config.LTI_ALLOW_LOOPBACK, timeoutMs: config.LTI_JWKS_TIMEOUT_MS }),
      {
        publicUrl: config.PUBLIC_URL,
        stateTtlSeconds: config.LTI_STATE_TTL_SECONDS,
        clockToleranceSeconds: config.LTI_CLOCK_TOLERANCE_SECONDS,
      },
      // Identity signs the LMS user in; class holds the course's class (their internal routes).
      peersClient({
        tokens,
        identityUrl: config.IDENTITY_URL,
        classUrl: config.CLASS_URL,
        timeoutMs: config.LTI_PEER_TIMEOUT_MS,
      }),
    );
    const retention = new RetentionJob(pool, integrationsPrivacy, {
      intervalMs: config.PRIVACY_RETENTION_INTERVAL_MS,
      logger,
    });
    return {
      routers: [
        ltiRouter(lti, keys, { stateTtlSeconds: config.LTI_STATE_TTL_SECONDS }),
        registrationsRouter(
          registrationUseCases(registrations, { allowLoopback: config.LTI_ALLOW_LOOPBACK }),
          config.PUBLIC_URL,
        ),
        dynamicRegistrationRouter(dynamicRegistration(config, pool)),
      ],
      // A platform posts the login and the launch as an HTML form.
      extra: (app) => app.use('/api/lti', express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 20 })),
      subscriptions: [privacySubscription(pool, integrationsPrivacy)],
      start: async () => retention.start(),
      stop: async () => retention.stop(),
    };
  },
};
