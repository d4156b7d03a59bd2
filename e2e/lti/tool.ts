// The LTI tool the contract tests launch into: the all-in-one with the services a journey needs,
// its PUBLIC_URL the origin the platform knows (TOOL, which the test reaches at app.url), the
// platform (lti1p3platform, platform.ts) started for it, the districts the journey names, and the
// platform registered by the first district's admin with what its admin screen shows.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { expect } from 'vitest';
import { createLogger, type ServiceDefinition } from '@checkpoint/service-kit';
import { services } from '@checkpoint/service-registry';
import { actor, call, startPostgres, TEST_SERVICE_TOKEN_SECRET, type PostgresHandle } from '@checkpoint/testkit';
import { assessmentService } from '../../services/assessment/src/index.ts';
import { classService } from '../../services/class/src/index.ts';
import { identityService } from '../../services/identity/src/index.ts';
import { integrationsService } from '../../services/integrations/src/index.ts';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';
import { startPlatform, type RunningPlatform } from './platform.ts';

/** The tool's public origin as the platform knows it. */
export const TOOL = 'https://checkpoint.test';

const DEFINITIONS: Record<'identity' | 'class' | 'assessment' | 'integrations', ServiceDefinition> = {
  identity: identityService,
  class: classService,
  assessment: assessmentService,
  integrations: integrationsService,
};

export interface District {
  id: string;
  name: string;
  domain: string;
}

export interface LtiTool {
  postgres: PostgresHandle;
  app: AllInOne;
  platform: RunningPlatform;
  /** The first district's registration of the platform. */
  registrationId: string;
  /** A URL of the tool's public origin, as the test reaches it. */
  atTool(url: string): string;
  service(name: string): AllInOne['services'][number];
  stop(): Promise<void>;
}

export async function startLtiTool(options: {
  services: (keyof typeof DEFINITIONS)[];
  districts: [District, ...District[]];
  env?: Record<string, string>;
}): Promise<LtiTool> {
  const postgres = await startPostgres();
  const app = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('lti', 'silent'),
    env: {
      LOG_LEVEL: 'silent',
      SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
      PUBLIC_URL: TOOL,
      LTI_ALLOW_LOOPBACK: 'true',
      ...options.env,
    },
    registry: {
      services: services.filter((s) => (options.services as string[]).includes(s.name)),
      definitions: Object.fromEntries(options.services.map((name) => [name, DEFINITIONS[name]])),
    },
  });
  // The platform reads the tool's keys (its client assertions) where the test reaches the tool.
  const platform = await startPlatform(TOOL, { toolJwksUrl: `${app.url}/api/lti/jwks` });
  const db = new pg.Pool({ connectionString: postgres.url, max: 1 });
  for (const d of options.districts)
    await db.query(`insert into identity.tenants (id, name, kind, email_domains) values ($1, $2, 'district', $3)`, [
      d.id,
      d.name,
      [d.domain],
    ]);
  await db.end();
  const service = (name: string) => app.services.find((s) => s.name === name)!;
  const { issuer, clientId, deploymentId, jwksUrl, authorizationUrl, tokenUrl } = platform.info;
  const created = await call(
    service('integrations'),
    actor('admin', options.districts[0].id),
    'POST',
    '/api/integrations/lti/registrations',
    { issuer, clientId, deploymentIds: [deploymentId], jwksUrl, authorizationUrl, tokenUrl },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return {
    postgres,
    app,
    platform,
    registrationId: (created.body as { id: string }).id,
    atTool: (url) => (url.startsWith(TOOL) ? app.url + url.slice(TOOL.length) : url),
    service,
    stop: async () => {
      await app.stop();
      await platform.stop();
      await postgres.stop();
    },
  };
}

/** A district of its own for one test file. */
export const district = (name: string, domain: string): District => ({ id: randomUUID(), name, domain });

/** The text of an HTML attribute or element, unescaped. */
export const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
