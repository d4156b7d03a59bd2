// Assembles what the container image runs, in the Containerfile's build stage, into one folder laid
// out like the checkout (the compiled code finds migrations, the web app and fonts relative to
// where its sources were, see build-services.mjs):
//   dist/checkpoint/         the compiled entry and its chunks (app/src/checkpoint.ts)
//   services/*/migrations/   the SQL migrations
//   web/dist/                the built web app (served by the gateway and the all-in-one)
//   node_modules/…           only the npm packages the compiled code loads, and what they need
// The packages are traced, not taken from package.json: the roots are the bundle's external
// imports (esbuild's metafile) and the packages its sources resolve by name at runtime
// (createRequire(…).resolve('pkg/…'), e.g. the PDF fonts); then each package's dependencies,
// optional dependencies that are installed and peers that are not optional, resolved as Node does (nested
// node_modules first). So no dev dependency, no tsx, no TypeScript source reaches the image.
//
//   node scripts/image-stage.mjs <out-dir>
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundleDir = path.join(root, 'dist/checkpoint');

/**
 * Files of traced packages that the image never loads: other databases' Prisma query compilers
 * (Postgres is the only provider), TypeScript (declarations, and sources some packages ship beside
 * their JavaScript: nothing runs TypeScript here), source maps of dependencies, changelogs.
 */
const PRUNE = [
  /^@prisma\/client\/runtime\/.*\.(sqlite|mysql|cockroachdb|sqlserver)\./,
  /\.[cm]?tsx?$/,
  /\.[cm]?js\.map$/,
  /(^|\/)(CHANGELOG|HISTORY)(\.md)?$/i,
];

/** "pkg", "@scope/pkg", "pkg/sub/path" → the package's name. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The folder of `name` as Node resolves it from `fromDir`: the nearest node_modules/name upwards. */
function resolvePackageDir(name, fromDir) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

/** The package folder that contains `file` (…/node_modules/name or …/node_modules/@scope/name). */
function packageDirOf(file) {
  const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (!match) throw new Error(`not inside a package: ${file}`);
  return match[1];
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Package folders the compiled code loads first: its external imports and runtime resolves. */
function rootPackages() {
  const meta = readJson(path.join(bundleDir, 'meta.json'));
  const dirs = new Set();
  for (const output of Object.values(meta.outputs)) {
    for (const imp of output.imports ?? []) {
      if (!imp.external || imp.path.startsWith('node:')) continue;
      if (imp.path.startsWith('.')) {
        // A package only in a workspace's own node_modules is imported by path (build-services.mjs).
        dirs.add(packageDirOf(path.resolve(bundleDir, decodeURIComponent(imp.path))));
        continue;
      }
      const dir = resolvePackageDir(packageName(imp.path), bundleDir);
      if (!dir) throw new Error(`the bundle imports ${imp.path}, which is not installed`);
      dirs.add(dir);
    }
  }
  const runtimeResolve = /createRequire\([^)]*\)\.resolve\(\s*[`'"]((?:@[\w.-]+\/)?[\w.-]+)/g;
  for (const input of Object.keys(meta.inputs)) {
    if (input.includes('node_modules/') || !/\.[cm]?ts$/.test(input)) continue;
    const source = readFileSync(path.join(root, input), 'utf8');
    for (const [, name] of source.matchAll(runtimeResolve)) {
      const dir = resolvePackageDir(name, path.dirname(path.join(root, input)));
      if (!dir) throw new Error(`${input} resolves ${name} at runtime, which is not installed`);
      dirs.add(dir);
    }
  }
  return dirs;
}

/** Every package folder reachable from the roots through dependencies. */
function tracePackages(roots) {
  const seen = new Set();
  const queue = [...roots];
  while (queue.length) {
    const dir = queue.pop();
    if (seen.has(dir)) continue;
    seen.add(dir);
    const pkg = readJson(path.join(dir, 'package.json'));
    const optionalPeers = new Set(
      Object.entries(pkg.peerDependenciesMeta ?? {})
        .filter(([, m]) => m?.optional)
        .map(([n]) => n),
    );
    const wanted = [
      ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ name, optional: false })),
      ...Object.keys(pkg.optionalDependencies ?? {}).map((name) => ({ name, optional: true })),
      // An optional peer is used only when the app installs it for its own sake: traced from there, if at all.
      ...Object.keys(pkg.peerDependencies ?? {})
        .filter((name) => !optionalPeers.has(name))
        .map((name) => ({ name, optional: false })),
    ];
    for (const { name, optional } of wanted) {
      const found = resolvePackageDir(name, dir);
      if (found) queue.push(found);
      // Optional ones for other platforms are not installed; a required one missing is a broken install.
      else if (!optional) throw new Error(`${path.relative(root, dir)} needs ${name}, which is not installed`);
    }
  }
  return seen;
}

function copyPackage(dir, out) {
  const target = path.join(out, path.relative(root, dir));
  cpSync(dir, target, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => {
      const rel = path.relative(dir, src).split(path.sep).join('/');
      // Nested packages are traced (and copied) on their own when something needs them.
      if (rel === 'node_modules' || rel.startsWith('node_modules/')) return false;
      const name = `${path.relative(path.join(root, 'node_modules'), dir).split(path.sep).join('/')}/${rel}`;
      return !PRUNE.some((re) => re.test(name) || re.test(rel));
    },
  });
}

function sizeOf(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += sizeOf(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

export function stage(out) {
  if (!existsSync(path.join(bundleDir, 'checkpoint.mjs')))
    throw new Error('dist/checkpoint is missing: run node scripts/build-services.mjs --target=checkpoint');
  if (!existsSync(path.join(root, 'web/dist/index.html'))) throw new Error('web/dist is missing: build the web app');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(bundleDir, path.join(out, 'dist/checkpoint'), {
    recursive: true,
    filter: (src) => !/(meta|stamp)\.json$/.test(src),
  });
  cpSync(path.join(root, 'web/dist'), path.join(out, 'web/dist'), { recursive: true });
  for (const service of readdirSync(path.join(root, 'services'))) {
    const migrations = path.join(root, 'services', service, 'migrations');
    if (existsSync(migrations))
      cpSync(migrations, path.join(out, 'services', service, 'migrations'), { recursive: true });
  }
  const packages = tracePackages(rootPackages());
  for (const dir of packages) copyPackage(dir, out);
  // The packages resolve as they did here: checked by resolving each root from the staged tree.
  const staged = createRequire(path.join(out, 'dist/checkpoint/checkpoint.mjs'));
  for (const name of ['pg', 'express', 'kafkajs']) staged.resolve(name);
  const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;
  console.log(
    `› staged ${packages.size} npm packages (${mb(sizeOf(path.join(out, 'node_modules')))}), ` +
      `code ${mb(sizeOf(path.join(out, 'dist')))}, web ${mb(sizeOf(path.join(out, 'web')))} in ${out}`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/image-stage.mjs <out-dir>');
    process.exit(2);
  }
  try {
    stage(path.resolve(out));
  } catch (err) {
    console.error(`image-stage: ${err.message}`);
    process.exit(1);
  }
}
