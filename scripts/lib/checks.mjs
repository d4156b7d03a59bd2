// What the check scripts (scripts/chart-check.mjs, scripts/cluster-check.mjs) share: one printed
// line per check, a `--summary=file.json` with `{passed, failed, checks}` for scripts/test.mjs,
// commands run with their output shown on failure, and tools built from the Go module proxy.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './bootstrap.mjs';

/** helm, pinned: chart-check renders with it and cluster-check installs with it (one build, one cache). */
export const HELM_PIN = { pkg: 'helm.sh/helm/v3/cmd/helm', version: 'v3.22.0' };
/** Where the Go-built tools live, one directory per tool and version. */
export const TOOLS_DIR = path.join(root, '.cache/chart-check/tools');

/** The checks of one script: `record` prints and counts one; `finish` writes the summary and exits. */
export function createChecks(label, argv = process.argv) {
  const summaryArg = argv.find((arg) => arg.startsWith('--summary='));
  const summaryFile = summaryArg ? path.resolve(summaryArg.slice('--summary='.length)) : undefined;
  const checks = [];
  function record(name, ok, detail = '') {
    checks.push({ name, ok, detail });
    console.log(`  ${ok ? '✓' : '✗'} ${name}${detail ? `: ${detail}` : ''}`);
    return ok;
  }
  function finish() {
    const passed = checks.filter((c) => c.ok).length;
    const failed = checks.length - passed;
    if (summaryFile) {
      mkdirSync(path.dirname(summaryFile), { recursive: true });
      writeFileSync(summaryFile, JSON.stringify({ passed, failed, checks }, null, 2));
    }
    console.log(`${label}: ${passed} passed, ${failed} failed`);
    process.exit(failed > 0 || passed === 0 ? 1 : 0);
  }
  return { checks, record, finish };
}

export function indented(text) {
  if (text.trim()) process.stdout.write(`${text.trimEnd().replace(/^/gm, '      ')}\n`);
}

/** Runs a command: { ok, out: stdout+stderr, stdout }; the output is shown when it fails (unless `quiet`) or with `echo`. */
export function run(cmd, args, { env = {}, cwd = root, echo = false, quiet = false, timeout } = {}) {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout,
    killSignal: 'SIGKILL',
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
  const ok = r.status === 0;
  if ((!ok && !quiet) || echo) indented(out);
  return { ok, out, stdout: r.stdout ?? '' };
}

export function must(result, what) {
  if (!result.ok) throw new Error(`${what} failed`);
  return result.stdout;
}

/** A module's directory in the (read-only) module cache, downloaded through the Go module proxy. */
export function goModule(module, version, cwd) {
  mkdirSync(cwd, { recursive: true });
  const out = must(
    run('go', ['mod', 'download', '-json', `${module}@${version}`], { cwd }),
    `go mod download ${module}@${version}`,
  );
  const info = JSON.parse(out);
  if (info.Error || !info.Dir) throw new Error(`go mod download ${module}@${version}: ${info.Error ?? 'no directory'}`);
  return info;
}

/**
 * A pinned tool, built once into TOOLS_DIR: `go install pkg@version`, or, for a module whose go.mod
 * has replace directives (which `go install pkg@version` refuses), `go build` in its module.
 */
export function installGoTool(pin, binaryName = path.basename(pin.pkg)) {
  const dir = path.join(TOOLS_DIR, `${path.basename(pin.pkg)}-${pin.version}`);
  const binary = path.join(dir, binaryName);
  if (existsSync(binary)) return binary;
  console.log(`› building ${binaryName} ${pin.version} from the Go module proxy (first run only)`);
  mkdirSync(dir, { recursive: true });
  if (pin.module) {
    const moduleDir = goModule(pin.module, pin.version, dir).Dir;
    must(
      run('go', ['build', '-C', moduleDir, '-o', binary, pin.pkg], { env: { GOFLAGS: '-mod=readonly' } }),
      `go build ${pin.module}`,
    );
  } else {
    must(
      run('go', ['install', `${pin.pkg}@${pin.version}`], { env: { GOFLAGS: '-mod=mod', GOBIN: dir } }),
      `go install ${pin.pkg}`,
    );
  }
  return binary;
}
