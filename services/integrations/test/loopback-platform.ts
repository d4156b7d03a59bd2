// A loopback platform for LTI Dynamic Registration tests: it serves only what the spec's platform
// side needs, its OpenID configuration and its registration endpoint, as the spec's examples show
// (the PyPI package lti1p3platform, which the launch tests use, has no dynamic registration).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the loopback platform answers and what it was sent. */
export interface LoopbackPlatform {
  origin: string;
  server: Server;
  /** Overrides of the configuration it serves. */
  config: Record<string, unknown>;
  /** Its answer to a registration (status and body), deployment id by default. */
  answer: (body: Record<string, unknown>) => { status: number; body: unknown };
  registrations: { authorization: string | undefined; body: Record<string, unknown> }[];
}

let clients = 0;
/** The client id the platform gave last. */
export const lastClientId = () => `client-${clients}`;
export const lastDeploymentId = () => `deployment-${clients}`;
export const TOKEN = 'platform-one-time-token';
export const TOOL_CONFIG = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

export async function startPlatform(): Promise<LoopbackPlatform> {
  const p: LoopbackPlatform = {
    origin: '',
    server: createServer(),
    config: {},
    // A new client id each time (as a platform makes one per registration), after the spec's example answer.
    answer: (body) => ({
      status: 200,
      body: {
        ...body,
        client_id: `client-${++clients}`,
        registration_client_uri: `${p.origin}/connect/register?client_id=client-${clients}`,
        [TOOL_CONFIG]: { ...(body[TOOL_CONFIG] as object), deployment_id: `deployment-${clients}` },
      },
    }),
    registrations: [],
  };
  p.server.on('request', async (req, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/.well-known/openid-configuration')
      // The platform's configuration, after the spec's example (section 3.4.1).
      return json(200, {
        issuer: p.origin,
        authorization_endpoint: `${p.origin}/connect/authorize`,
        registration_endpoint: `${p.origin}/connect/register`,
        jwks_uri: `${p.origin}/jwks.json`,
        token_endpoint: `${p.origin}/connect/token`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        token_endpoint_auth_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'https://purl.imsglobal.org/spec/lti-ags/scope/score'],
        response_types_supported: ['id_token'],
        id_token_signing_alg_values_supported: ['RS256', 'ES256'],
        claims_supported: ['sub', 'iss', 'name', 'given_name', 'family_name', 'email'],
        'https://purl.imsglobal.org/spec/lti-platform-configuration': {
          product_family_code: 'ExampleLMS',
          messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
        },
        ...p.config,
      });
    if (req.method === 'POST' && req.url === '/connect/register') {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { error: 'invalid_token' });
      p.registrations.push({ authorization: req.headers.authorization, body });
      const answer = p.answer(body);
      return json(answer.status, answer.body);
    }
    // The platform admin's page (browser tests): it opens the tool's registration URL in a new
    // window, with its configuration URL and token, as a platform does, and shows the message the
    // tool posts back.
    if (req.method === 'GET' && req.url?.startsWith('/admin/register-tool?')) {
      const toolUrl = new URL(req.url, p.origin).searchParams.get('url') ?? '';
      const target = new URL(toolUrl);
      for (const [k, v] of Object.entries(platformParams(p))) target.searchParams.set(k, v);
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.end(
        `<!doctype html><html><body><button id="open">Register tool</button><output id="message">waiting</output>` +
          `<script>document.getElementById('open').onclick = function () { window.open(${JSON.stringify(target.toString())}, 'tool'); };` +
          `window.addEventListener('message', function (e) { document.getElementById('message').textContent = JSON.stringify(e.data); });</script></body></html>`,
      );
    }
    json(404, {});
  });
  await new Promise<void>((resolve) => p.server.listen(0, '127.0.0.1', resolve));
  p.origin = `http://127.0.0.1:${(p.server.address() as AddressInfo).port}`;
  return p;
}

/** Its configuration URL and token, as the platform adds them to the tool's registration URL. */
export const platformParams = (p: LoopbackPlatform) => ({
  openid_configuration: `${p.origin}/.well-known/openid-configuration`,
  registration_token: TOKEN,
});
