// The browser journeys' LMS: the platform (lti1p3platform, e2e/lti/platform.ts) started for the
// all-in-one this run starts, and registered by hand by the Demo District's admin (through the API,
// as Admin → Integrations does; lti-deep-linking.spec.ts walks that form itself).
import type { Page } from '@playwright/test';
import { apiPost, signIn } from './helpers';
import { setPasswordByMail } from './mailbox';
import { startPlatform, type RunningPlatform } from '../lti/platform';

const DOMAIN = 'demo.checkpoint.school';

/** A run's own suffix (names of users, courses). */
export const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The platform for the tool at `toolUrl` (its PUBLIC_URL), registered by the district's admin signed in on `page`. */
export async function registeredPlatform(page: Page, toolUrl: string, baseURL: string): Promise<RunningPlatform> {
  const platform = await startPlatform(toolUrl, { toolJwksUrl: `${baseURL}/api/lti/jwks` });
  const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${runId()}`, firstName: '', lastName: '' };
  await setPasswordByMail(page, admin.email, admin.password);
  await signIn(page, admin);
  const { issuer, clientId, deploymentId, jwksUrl, authorizationUrl, tokenUrl } = platform.info;
  await apiPost(page, '/api/integrations/lti/registrations', {
    issuer,
    clientId,
    deploymentIds: [deploymentId],
    jwksUrl,
    authorizationUrl,
    tokenUrl,
  });
  return platform;
}
