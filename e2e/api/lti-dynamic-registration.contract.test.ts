// LTI Dynamic Registration through the gateway, in the all-in-one with the integrations service
// alone: a district admin makes a one-time link; the platform opens it (a GET from the platform
// admin's browser, in a window or an iframe); the tool registers with the platform and stores the
// registration; the answer's page may be framed by the platform and runs only its close script,
// whatever the gateway's own headers say; the stored registration then starts a login. The
// platform is a loopback one serving only its OpenID configuration and registration endpoint, as
// the spec's examples show: the PyPI package lti1p3platform, which the launch journeys use
// (integrations.contract.test.ts), has no dynamic registration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@checkpoint/service-kit';
import { services } from '@checkpoint/service-registry';
import { actor, call, startPostgres, TEST_SERVICE_TOKEN_SECRET, type PostgresHandle } from '@checkpoint/testkit';
import { integrationsService } from '../../services/integrations/src/index.ts';
import {
  lastClientId,
  platformParams,
  startPlatform,
  type LoopbackPlatform,
} from '../../services/integrations/test/loopback-platform.ts';
import { startAllInOne, type AllInOne } from '../../app/src/compose.ts';

const TOOL = 'https://checkpoint.test';
const entry = services.find((s) => s.name === 'integrations')!;

let postgres: PostgresHandle;
let app: AllInOne;
let platform: LoopbackPlatform;
const admin = actor('admin');

beforeAll(async () => {
  [postgres, platform] = await Promise.all([startPostgres(), startPlatform()]);
  app = await startAllInOne({
    postgresUrl: postgres.url,
    port: 0,
    host: '127.0.0.1',
    logger: createLogger('lti', 'silent'),
    env: {
      LOG_LEVEL: 'silent',
      SERVICE_TOKEN_SECRET: TEST_SERVICE_TOKEN_SECRET,
      PUBLIC_URL: TOOL,
      LTI_ALLOW_LOOPBACK: 'true',
    },
    registry: { services: [entry], definitions: { integrations: integrationsService } },
  });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await new Promise((resolve) => platform?.server.close(resolve));
  await postgres?.stop();
});

describe('LTI Dynamic Registration through the gateway', () => {
  it('when the platform opens the admin’s link, then the tool is registered, the page may be framed by the platform and runs only its close script, and a login finds the registration', async () => {
    const made = await call(app.services[0]!, admin, 'POST', '/api/integrations/lti/registration-links');
    expect(made.status).toBe(201);
    const link = new URL(made.body.url as string);
    expect(link.origin).toBe(TOOL);

    const url = new URL(`${app.url}${link.pathname}${link.search}`);
    for (const [k, v] of Object.entries(platformParams(platform))) url.searchParams.set(k, v);
    const res = await fetch(url, { headers: { accept: 'text/html' } });
    const page = await res.text();
    expect(res.status, page).toBe(200);
    expect(page).toContain("subject: 'org.imsglobal.lti.close'");
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`frame-ancestors https: ${platform.origin}`);
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/script-src 'sha256-/);
    expect(res.headers.get('x-frame-options')).toBeNull();
    // Opened in a window of the platform's, the page reaches it through window.opener.
    expect(res.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
    expect(res.headers.get('cache-control')).toContain('no-store');

    const listed = await call(app.services[0]!, admin, 'GET', '/api/integrations/lti/registrations');
    expect(listed.body.registrations).toEqual([
      expect.objectContaining({ issuer: platform.origin, clientId: lastClientId() }),
    ]);

    // The stored registration is the platform's: a login initiation goes to its authorization endpoint.
    const login = await fetch(
      `${app.url}/api/lti/login?${new URLSearchParams({
        iss: platform.origin,
        client_id: lastClientId(),
        login_hint: 'u1',
        target_link_uri: `${TOOL}/api/lti/launch`,
      })}`,
      { redirect: 'manual' },
    );
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toMatch(new RegExp(`^${platform.origin}/connect/authorize\\?`));

    // The link was used once.
    const again = await fetch(url, { headers: { accept: 'application/json' } });
    expect(again.status).toBe(400);
    expect(Object.keys(((await again.json()) as { fields: object }).fields)).toEqual(['rt']);
  });
});
