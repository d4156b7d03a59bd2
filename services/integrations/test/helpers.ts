// Test helpers: the integrations service on a fresh database, its platform registrations.
import { randomUUID } from 'node:crypto';
import { startServiceForTest, type Harness } from '@checkpoint/testkit';
import { integrationsService } from '../src/index.ts';

export { actor, call, type Actor, type Harness, type Reply } from '@checkpoint/testkit';

/** The tool's public origin in these tests (a login must target it). */
export const TOOL_URL = 'https://checkpoint.test';

export const startIntegrationsService = (env: Record<string, string> = {}): Promise<Harness> =>
  startServiceForTest(integrationsService, { PUBLIC_URL: TOOL_URL, LTI_ALLOW_LOOPBACK: 'true', ...env });

/** A valid registration of a made-up platform (a new issuer each time). */
export function platformRegistration(overrides: Record<string, unknown> = {}) {
  const host = `https://lms-${randomUUID().slice(0, 8)}.example.org`;
  return {
    issuer: host,
    clientId: `client-${randomUUID().slice(0, 8)}`,
    deploymentIds: ['deployment-1'],
    jwksUrl: `${host}/api/lti/security/jwks`,
    authorizationUrl: `${host}/api/lti/authorize_redirect`,
    tokenUrl: `${host}/login/oauth2/token`,
    ...overrides,
  };
}
