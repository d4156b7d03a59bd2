// The LTI 1.3 platform the tests launch from: the PyPI package lti1p3platform (0.1.8, MIT),
// installed into a project-local virtual environment (.cache/lti-venv) on first use, driven by
// e2e/lti/platform.py on 127.0.0.1. The project does not implement a platform of its own.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const root = path.resolve(import.meta.dirname, '../..');
const VENV = path.join(root, '.cache/lti-venv');
export const LTI_PLATFORM_PACKAGE = 'lti1p3platform==0.1.8';

/** What the platform tells its admin, and the tool's admin registers by hand. */
export interface PlatformInfo {
  url: string;
  issuer: string;
  clientId: string;
  deploymentId: string;
  jwksUrl: string;
  authorizationUrl: string;
  tokenUrl: string;
}

export interface RunningPlatform {
  info: PlatformInfo;
  stop(): Promise<void>;
}

interface Python {
  command: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The package in .cache/lti-venv (a venv, or `pip --target` where python3-venv is missing, as
 * e2e/schemathesis/run.ts does), installed on first use from PyPI; each step bounded in time.
 */
export function ensurePlatformInstalled(): Python {
  const venvPython = path.join(VENV, 'bin', 'python3');
  const target = path.join(VENV, 'site');
  const marker = path.join(VENV, '.installed');
  const viaTarget = { command: 'python3', env: { ...process.env, PYTHONPATH: target } };
  if (existsSync(marker)) {
    return readFileSync(marker, 'utf8') === `target ${LTI_PLATFORM_PACKAGE}`
      ? viaTarget
      : { command: venvPython, env: process.env };
  }
  rmSync(VENV, { recursive: true, force: true });
  const run = (cmd: string, args: string[]) =>
    spawnSync(cmd, args, { stdio: 'inherit', timeout: 300_000 }).status === 0;
  if (
    run('python3', ['-m', 'venv', VENV]) &&
    run(venvPython, ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', LTI_PLATFORM_PACKAGE])
  ) {
    writeFileSync(marker, `venv ${LTI_PLATFORM_PACKAGE}`);
    return { command: venvPython, env: process.env };
  }
  rmSync(VENV, { recursive: true, force: true });
  if (!run('python3', ['-m', 'pip', 'install', '-q', '--target', target, LTI_PLATFORM_PACKAGE]))
    throw new Error(`could not install ${LTI_PLATFORM_PACKAGE} from PyPI`);
  writeFileSync(marker, `target ${LTI_PLATFORM_PACKAGE}`);
  return viaTarget;
}

/** An NRPS member as the platform lists it (NRPS 2.0 §2.2). */
export interface PlatformMember {
  user_id: string;
  roles: string[];
  status?: 'Active' | 'Inactive' | 'Deleted';
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
}

/**
 * The course's roster in the platform (what its admin enrols), paged by `pageSize`; `failPage`
 * answers 500, `foreignNext` links the next page on another host (neither is what a platform should do).
 */
export async function setRoster(
  platform: PlatformInfo,
  contextId: string,
  roster: { members: PlatformMember[]; pageSize?: number; failPage?: number; title?: string; foreignNext?: boolean },
): Promise<void> {
  const res = await fetch(`${platform.url}/contexts/${encodeURIComponent(contextId)}/members`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      members: roster.members,
      page_size: roster.pageSize,
      fail_page: roster.failPage,
      foreign_next: roster.foreignNext,
      title: roster.title,
    }),
  });
  if (res.status !== 204) throw new Error(`the platform refused the roster: ${res.status}`);
}

/** The tool's public keys pasted into the platform (as an LMS admin may instead of a JWKS URL). */
export async function setToolJwks(platform: PlatformInfo, jwks: unknown): Promise<void> {
  const res = await fetch(`${platform.url}/tool-jwks`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(jwks),
  });
  if (res.status !== 204) throw new Error(`the platform refused the keys: ${res.status}`);
}

/** Starts the platform for a tool whose public origin is `toolUrl`; it ends with stop() (or after 10 minutes). */
export async function startPlatform(
  toolUrl: string,
  options: { clientId?: string; toolJwksUrl?: string; port?: number } = {},
): Promise<RunningPlatform> {
  const python = ensurePlatformInstalled();
  const args = [path.join(root, 'e2e/lti/platform.py'), '--tool-url', toolUrl, '--max-seconds', '600'];
  if (options.clientId) args.push('--client-id', options.clientId);
  // Where the platform reads the tool's keys (client assertions, a deep-linking answer) when the tool's public origin is not reachable.
  if (options.toolJwksUrl) args.push('--tool-jwks-url', options.toolJwksUrl);
  // A platform started again on the port it had (its line item URLs stay the same).
  if (options.port) args.push('--port', String(options.port));
  const child: ChildProcess = spawn(python.command, args, { env: python.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const info = await new Promise<PlatformInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the LTI platform did not start in 30 s: ${stderr}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`the LTI platform exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line) as PlatformInfo);
    });
  });
  return {
    info,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.stdin!.end();
      }),
  };
}
