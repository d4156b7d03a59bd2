// podman for the container journey: the image built by scripts/build-image.mjs, containers run the
// way these machines allow (runc, host network, containers.conf without default ulimits: see
// docs/containers.md), every container removed when the test process exits, even without cleanup.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Written by scripts/build-image.mjs (podmanEnv) before any container runs. */
const env = { ...process.env, CONTAINERS_CONF: path.join(root, '.cache/containers/containers.conf') };

export interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs podman, bounded in time; never throws (the caller asserts on the outcome). */
export function podman(args: string[], timeoutMs = 60_000): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn('podman', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      stderr += `\n(podman ${args[0]} killed after ${timeoutMs} ms)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Builds the image (base image and podman included when missing); the build's own output goes to the log. */
export function buildImage(tag: string, timeoutMs: number): { ok: boolean; seconds: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build-image.mjs'), '--tag', tag], {
    cwd: root,
    stdio: 'inherit',
    timeout: timeoutMs,
  });
  return { ok: r.status === 0, seconds: (Date.now() - started) / 1000 };
}

/** A set of containers of one test run: unique names, env files with the secrets, removal at exit. */
export class Containers {
  readonly prefix = `cp-journey-${randomBytes(4).toString('hex')}`;
  private readonly envDir = mkdtempSync(path.join(tmpdir(), 'cp-journey-env-'));
  private readonly names = new Set<string>();
  private readonly removeAtExit = () => this.removeAllSync();

  constructor(readonly image: string) {
    process.once('exit', this.removeAtExit);
  }

  name(proc: string): string {
    return `${this.prefix}-${proc}`;
  }

  /**
   * The options every container here gets: host network (loopback only), read-only root with a
   * tmpfs /tmp, the image's non-root user given explicitly.
   */
  private runOptions(proc: string, vars: Record<string, string>): string[] {
    // Values in a file of the test's own (mode 600), not in the command line.
    const file = path.join(this.envDir, `${proc}.env`);
    writeFileSync(
      file,
      Object.entries(vars)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
    chmodSync(file, 0o600);
    return [
      '--runtime',
      '/usr/sbin/runc',
      '--network',
      'host',
      '--read-only',
      '--tmpfs',
      '/tmp:rw,size=64m,mode=1777',
      '--user',
      '10001:10001',
      '--env-file',
      file,
    ];
  }

  /** Runs a command to completion (e.g. `migrate`), removing the container after. */
  runOnce(proc: string, args: string[], vars: Record<string, string>, timeoutMs: number): Promise<Outcome> {
    return podman(
      ['run', '--rm', '--name', this.name(proc), ...this.runOptions(proc, vars), this.image, ...args],
      timeoutMs,
    );
  }

  /** Starts a long-running process detached; its container stays after it exits, to be inspected. */
  async start(proc: string, vars: Record<string, string>): Promise<void> {
    const name = this.name(proc);
    this.names.add(name);
    const r = await podman(['run', '--detach', '--name', name, ...this.runOptions(proc, vars), this.image, proc]);
    if (r.status !== 0) throw new Error(`podman run ${proc}: ${r.stderr.trim()}`);
  }

  async logs(proc: string, lines = 40): Promise<string> {
    const r = await podman(['logs', '--tail', String(lines), this.name(proc)]);
    return `${r.stdout}${r.stderr}`.trim();
  }

  /** State of a container: whether it runs, and its exit code once stopped. */
  async state(proc: string): Promise<{ running: boolean; exitCode: number }> {
    const r = await podman(['inspect', '--format', '{{.State.Running}} {{.State.ExitCode}}', this.name(proc)]);
    const [running, code] = r.stdout.trim().split(' ');
    return { running: running === 'true', exitCode: Number(code) };
  }

  /**
   * `podman stop`: the image's STOPSIGNAL (SIGTERM), then SIGKILL after graceSeconds. Resolves with
   * the exit code and how long it took.
   */
  async stop(proc: string, graceSeconds: number): Promise<{ exitCode: number; seconds: number }> {
    const started = Date.now();
    const r = await podman(['stop', '--time', String(graceSeconds), this.name(proc)], (graceSeconds + 30) * 1000);
    if (r.status !== 0) throw new Error(`podman stop ${proc}: ${r.stderr.trim()}`);
    const seconds = (Date.now() - started) / 1000;
    return { exitCode: (await this.state(proc)).exitCode, seconds };
  }

  async removeAll(): Promise<void> {
    if (this.names.size) await podman(['rm', '--force', '--time', '0', ...this.names], 60_000);
    this.names.clear();
    rmSync(this.envDir, { recursive: true, force: true });
    process.off('exit', this.removeAtExit);
  }

  private removeAllSync(): void {
    if (this.names.size) spawnSync('podman', ['rm', '--force', '--time', '0', ...this.names], { env, timeout: 60_000 });
    rmSync(this.envDir, { recursive: true, force: true });
  }
}
