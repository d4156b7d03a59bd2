// Compiles the all-in-one (app/src/all-in-one.ts: every service, the bus and the gateway) into one
// ES module, dist/all-in-one/all-in-one.mjs, so that `npm start` runs JavaScript: no tsx or
// esbuild loaded at runtime. esbuild bundles the workspace sources (@checkpoint/*, the generated
// Prisma clients and protobuf code); npm packages stay imports that Node resolves at runtime.
// Skipped when the sources it was built from (its metafile's inputs), package-lock.json and this
// script hash the same as last time: code generation rewrites files, so mtimes would not tell.
// Worker threads' entries (WORKERS below) are compiled beside the bundle as files of their own.
// `--target=checkpoint` builds the container image's entry instead (app/src/checkpoint.ts, one
// command per process) into dist/checkpoint/, split into chunks so that a process loads only its code.
//
//   node scripts/build-services.mjs [--force] [--target=all-in-one|checkpoint]
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = {
  'all-in-one': { entry: 'app/src/all-in-one.ts', outdir: 'dist/all-in-one', splitting: false },
  checkpoint: { entry: 'app/src/checkpoint.ts', outdir: 'dist/checkpoint', splitting: true },
};

function targetFiles(target) {
  const spec = TARGETS[target];
  if (!spec) throw new Error(`--target: one of ${Object.keys(TARGETS).join(', ')} (got "${target}")`);
  const outdir = path.join(root, spec.outdir);
  const name = path.basename(spec.entry, '.ts');
  return {
    ...spec,
    outdir,
    bundle: path.join(outdir, `${name}.mjs`),
    meta: path.join(outdir, 'meta.json'),
    stamp: path.join(outdir, 'stamp.json'),
  };
}
/** Worker threads' entries: [file name beside the bundle, without .mjs; source]. */
const WORKERS = [['roster-preview.worker', 'services/identity/src/domain/roster/preview.worker.ts']];
const rootModules = path.join(root, 'node_modules') + path.sep;
const toUrlPath = (p) => p.split(path.sep).map(encodeURIComponent).join('/');

/** One hash of the bundle's inputs (paths relative to root), the lock file and this script. */
function inputsHash(inputs) {
  const hash = createHash('sha256');
  for (const file of [...new Set([...inputs, 'package-lock.json', 'scripts/build-services.mjs'])].sort()) {
    hash.update(`${file}\0`);
    try {
      hash.update(readFileSync(path.join(root, file)));
    } catch {
      hash.update('missing');
    }
    hash.update('\0');
  }
  return hash.digest('hex');
}

function upToDate(files) {
  if (!existsSync(files.bundle) || !existsSync(files.meta) || !existsSync(files.stamp)) return false;
  try {
    const meta = JSON.parse(readFileSync(files.meta, 'utf8'));
    const stamp = JSON.parse(readFileSync(files.stamp, 'utf8'));
    return stamp.hash === inputsHash(Object.keys(meta.inputs));
  } catch {
    return false;
  }
}

/**
 * npm packages are not bundled. One installed at the root resolves from dist/ as from the source;
 * one only in a workspace's own node_modules (a version that differs from the root's, e.g.
 * services/generation/node_modules/openai) is imported by its resolved file's path.
 */
const externalPackages = (outdir) => ({
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData?.resolving || args.path.startsWith('@checkpoint/')) return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (resolved.external || resolved.path.startsWith(rootModules)) return { path: args.path, external: true };
      return { path: `./${toUrlPath(path.relative(outdir, resolved.path))}`, external: true };
    });
  },
});

/**
 * A worker takes only what it uses of the workspace packages (packages/*): their modules are
 * marked free of side effects, so that e.g. the name rules of @checkpoint/service-kit do not bring
 * the HTTP server, Postgres and tracing into the roster worker.
 */
const packagesDir = path.join(root, 'packages') + path.sep;
const workspaceWithoutSideEffects = {
  name: 'workspace-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /^(@checkpoint\/|\.)/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      if (!args.path.startsWith('@checkpoint/') && !args.importer.startsWith(packagesDir)) return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(packagesDir)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

/**
 * import.meta in a bundled source means that source's own location (migrations/, web/dist, fonts
 * are found relative to it): each use becomes the source file's URL, computed from the bundle's
 * URL, so the compiled tree keeps working wherever the checkout lies.
 */
const sourceImportMeta = (outdir) => ({
  name: 'source-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      let contents = readFileSync(args.path, 'utf8');
      if (/\bimport\.meta\.(url|dirname|filename)\b/.test(contents)) {
        const url = `new URL(${JSON.stringify(toUrlPath(path.relative(outdir, args.path)))}, import.meta.url).href`;
        const header =
          `import { fileURLToPath as __sourceFileURLToPath } from 'node:url';` +
          `const __sourceUrl = ${url}, __sourceFile = __sourceFileURLToPath(__sourceUrl), ` +
          `__sourceDir = __sourceFileURLToPath(new URL('.', __sourceUrl)).replace(/\\/$/, '');`;
        // On the first line, so that the source map's line numbers stay right.
        contents =
          header +
          contents
            .replace(/\bimport\.meta\.url\b/g, '__sourceUrl')
            .replace(/\bimport\.meta\.dirname\b/g, '__sourceDir')
            .replace(/\bimport\.meta\.filename\b/g, '__sourceFile');
      }
      return { contents, loader: 'ts' };
    });
  },
});

export async function buildServices({ force = false, target = 'all-in-one' } = {}) {
  const files = targetFiles(target);
  if (!force && upToDate(files)) return false;
  const started = Date.now();
  const esbuild = await import('esbuild');
  // Chunks of an earlier split build would stay beside the new ones.
  if (files.splitting) rmSync(files.outdir, { recursive: true, force: true });
  const common = {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Class and function names stay as written: errors and logs use them.
    keepNames: true,
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    define: { __CHECKPOINT_BUNDLED__: 'true' },
  };
  const result = await esbuild.build({
    ...common,
    entryPoints: [path.join(root, files.entry)],
    // Chunks sit beside the entry: the URLs computed from import.meta (above) assume one folder.
    ...(files.splitting
      ? { outdir: files.outdir, splitting: true, outExtension: { '.js': '.mjs' }, chunkNames: '[name]-[hash]' }
      : { outfile: files.bundle }),
    plugins: [externalPackages(files.outdir), sourceImportMeta(files.outdir)],
  });
  // Worker threads' entries, each its own file beside the bundle (found there by the code that
  // starts them, which `__CHECKPOINT_BUNDLED__` tells it is compiled).
  const workers = await esbuild.build({
    ...common,
    entryPoints: WORKERS.map(([name, source]) => ({ in: path.join(root, source), out: name })),
    outdir: files.outdir,
    outExtension: { '.js': '.mjs' },
    plugins: [workspaceWithoutSideEffects, externalPackages(files.outdir), sourceImportMeta(files.outdir)],
  });
  const metafile = {
    inputs: { ...result.metafile.inputs, ...workers.metafile.inputs },
    outputs: { ...result.metafile.outputs, ...workers.metafile.outputs },
  };
  writeFileSync(files.meta, JSON.stringify(metafile));
  writeFileSync(files.stamp, JSON.stringify({ hash: inputsHash(Object.keys(metafile.inputs)) }));
  await esbuild.stop();
  console.log(`› built the services: ${path.relative(root, files.bundle)} (${Date.now() - started} ms)`);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv.find((a) => a.startsWith('--target='))?.slice('--target='.length) ?? 'all-in-one';
  await buildServices({ force: process.argv.includes('--force'), target });
}
