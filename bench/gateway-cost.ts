// `npm run bench -- gateway`: the gateway's own CPU per proxied answer save, alone on the machine's
// cores, in seconds rather than the stack's minutes. The gateway (createGateway, its real config,
// an info-level access log written to /dev/null) runs in this process with a stand-in identity
// (the JWKS of a key made here, an empty revocation list held as identity holds it); the assessment
// service's place is taken by bench/bare-server.mjs; bench/load.mjs sends signed-in students' saves
// (an RS256 access token as identity signs it, the CSRF header) in a closed loop. CPU of this
// process from process.cpuUsage() over the generator's measured window. First the same load goes
// through a bare Node proxy in this process (the yardstick: the least any proxy hop costs at that
// rate), then through the gateway; both figures and their ratio are printed.
// Settings: GATEWAY_COST_CLIENTS (16), GATEWAY_COST_SECONDS (10), GATEWAY_COST_WARMUP_SECONDS (3),
// GATEWAY_COST_RATE (requests per second in all; unset: closed loop), GATEWAY_COST_ROUNDS (3).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileSync, rmSync } from 'node:fs';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { pino } from 'pino';
import { listen, parseConfig } from '@checkpoint/service-kit';
import { createGateway, gatewayConfigSchema, stopGateway } from '../gateway/src/index.ts';

const bench = import.meta.dirname;
function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
  return n;
}
const CLIENTS = positiveInt('GATEWAY_COST_CLIENTS', 16);
const SECONDS = positiveInt('GATEWAY_COST_SECONDS', 10);
const WARMUP_SECONDS = positiveInt('GATEWAY_COST_WARMUP_SECONDS', 3);
/** Bare proxy and gateway, alternated this many times; the median ratio is judged. */
const ROUNDS = positiveInt('GATEWAY_COST_ROUNDS', 3);
// Requests per second in all (unset: closed loop, as fast as answered). CPU per request depends
// on the rate (fewer requests share each wake-up), so compare builds at one rate.
const RATE = process.env.GATEWAY_COST_RATE ? positiveInt('GATEWAY_COST_RATE', 0) : undefined;
/** The gateway's CPU per request as a multiple of the bare proxy's, same run and rate (the target is at 1,500/s). */
const TARGET_RATIO = 1.5;

/** Identity's part for the gateway: its JWKS and the revocation list (none revoked, held like identity does). */
async function standInIdentity(jwk: object): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/jwks.json') return answer({ keys: [jwk] });
    if (url.pathname === '/readyz') return answer({ status: 'ready' });
    if (url.pathname === '/internal/sessions/revoked') {
      const list = () => answer({ asOf: new Date().toISOString(), accessTokenTtlSeconds: 900, sessions: [] });
      const wait = Number(url.searchParams.get('wait') ?? 0);
      if (wait > 0) setTimeout(list, wait * 1000).unref();
      else list();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

function spawnLine(args: string[], pattern: RegExp, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<{ child: typeof child; match: RegExpExecArray }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = pattern.exec(out);
      if (m) resolve({ child, match: m });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

const { privateKey, publicKey } = await generateKeyPair('RS256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
const identity = await standInIdentity(jwk);
const upstream = await spawnLine([path.join(bench, 'bare-server.mjs')], /BARE_READY (\d+)/, {
  ...process.env,
  PORT: '0',
});
const config = parseConfig(gatewayConfigSchema, {
  PORT: '0',
  IDENTITY_URL: identity.url,
  ASSESSMENT_URL: `http://127.0.0.1:${upstream.match[1]}`,
  SERVICE_TOKEN_SECRET: randomBytes(32).toString('base64url'),
  WEB_DIST: path.join(tmpdir(), 'no-web-app-here'),
});
// The access log at info, as in production, written where it costs what a file costs.
const logger = pino(
  { level: 'info', base: { service: 'gateway' } },
  pino.destination({ dest: '/dev/null', sync: false }),
);
const app = createGateway(config, logger as never);
const gateway = await listen(app, 0, '127.0.0.1');

const clients = await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    const csrf = randomBytes(16).toString('base64url');
    const token = await new SignJWT({ role: 'student', tid: randomUUID(), sid: randomUUID(), csrf })
      .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
      .setSubject(randomUUID())
      .setIssuer('checkpoint-identity')
      .setAudience('checkpoint')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    return {
      headers: { Cookie: `cp_session=${token}; cp_csrf=${csrf}`, 'X-CSRF-Token': csrf },
      saves: Array.from({ length: 10 }, (_, i) => ({
        assessmentId: randomUUID(),
        questionId: randomUUID(),
        answer: `Answer ${i}`,
      })),
    };
  }),
);
interface LoadResult {
  seconds: number;
  requests: number;
  ok: number;
  statuses: Record<string, number>;
  perSecond: number;
  ms: Record<string, number>;
}

/** bench/load.mjs against `url` with the students' saves; this process's CPU over the measured window. */
async function drive(url: string): Promise<{ r: LoadResult; cpu: NodeJS.CpuUsage }> {
  const planFile = path.join(tmpdir(), `gateway-cost-${process.pid}.json`);
  writeFileSync(
    planFile,
    JSON.stringify({ url, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, ratePerSecond: RATE, clients }),
  );
  const load = spawn(process.execPath, [path.join(bench, 'load.mjs'), planFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  let cpuBefore: NodeJS.CpuUsage | undefined;
  let cpu: NodeJS.CpuUsage | undefined;
  load.stdout.on('data', (chunk: Buffer) => {
    out += chunk;
    if (!cpuBefore && out.includes('MEASURE_START')) cpuBefore = process.cpuUsage();
    if (cpuBefore && !cpu && out.includes('MEASURE_END')) cpu = process.cpuUsage(cpuBefore);
  });
  const code = await new Promise<number | null>((resolve) => load.once('exit', resolve));
  rmSync(planFile, { force: true });
  const line = out.split('\n').find((l) => l.startsWith('{'));
  if (code !== 0 || !line || !cpu) throw new Error(`the load generator exited with ${code}`);
  return { r: JSON.parse(line) as LoadResult, cpu };
}

/**
 * The yardstick: the least any Node proxy hop does (read the body, pass it on over a kept-alive
 * connection, pipe the answer back), with no session, CSRF, token, log, metrics or headers.
 * Measured in this process at the same rate, so its figure is the floor under the gateway's.
 */
async function bareProxy(upstreamPort: number): Promise<{ server: Server; url: string }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstreamReq = request({
        hostname: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'content-length': String(body.length) },
        agent,
      });
      upstreamReq.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstreamReq.on('error', () => res.destroy());
      upstreamReq.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

function report(what: string, { r, cpu }: { r: LoadResult; cpu: NodeJS.CpuUsage }): number {
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const perRequest = (1000 * cpuSeconds) / Math.max(1, r.requests);
  console.log(
    `${what}, POST /api/responses signed in, ${CLIENTS} clients: ${r.perSecond.toFixed(0)} requests/s ` +
      `(${r.ok} of ${r.requests} 2xx, ${JSON.stringify(r.statuses)}), p50 ${r.ms.p50!.toFixed(2)} / p99 ${r.ms.p99!.toFixed(2)} ms; ` +
      `${(cpuSeconds / r.seconds).toFixed(2)} cores = ${perRequest.toFixed(3)} CPU ms per request ` +
      `(user ${(cpu.user / 1000 / Math.max(1, r.requests)).toFixed(3)}, system ${(cpu.system / 1000 / Math.max(1, r.requests)).toFixed(3)})`,
  );
  return perRequest;
}

// Rounds alternate the two (bare, gateway, bare, gateway…) so that a burst of the shared machine's
// other work lands on both; the median ratio is judged.
const yardstick = await bareProxy(Number(upstream.match[1]));
const ratios: number[] = [];
let allOk = true;
for (let round = 1; round <= ROUNDS; round++) {
  const floor = await drive(`${yardstick.url}/api/responses`);
  const measured = await drive(`${gateway.url}/api/responses`);
  allOk &&= floor.r.ok === floor.r.requests && measured.r.ok === measured.r.requests;
  const prefix = ROUNDS > 1 ? `round ${round}: ` : '';
  const floorMs = report(`${prefix}bare Node proxy (the floor of any proxy hop)`, floor);
  const gatewayMs = report(`${prefix}gateway alone`, measured);
  ratios.push(gatewayMs / floorMs);
  console.log(
    `${prefix}gateway ${gatewayMs.toFixed(3)} CPU ms per request = ${(gatewayMs / floorMs).toFixed(2)}× the bare proxy's ${floorMs.toFixed(3)} at the same rate`,
  );
}
yardstick.server.closeAllConnections();
await new Promise((r) => yardstick.server.close(r));
const ratio = [...ratios].sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)]!;
console.log(
  `Target: the gateway ≤ ${TARGET_RATIO}× the bare proxy's CPU per request at the same rate (${RATE ?? 'unpaced'} requests/s): ` +
    `${ratio <= TARGET_RATIO ? 'met' : 'MISSED'} (${ROUNDS > 1 ? `median of ${ROUNDS} rounds ` : ''}${ratio.toFixed(2)}×; ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
);
stopGateway(app);
upstream.child.kill('SIGTERM');
gateway.server.closeAllConnections();
identity.server.closeAllConnections();
await Promise.all([gateway.server, identity.server].map((s) => new Promise((r) => s.close(r))));
process.exit(allOk ? 0 : 1);
