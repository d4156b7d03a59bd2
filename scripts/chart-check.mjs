// `node scripts/chart-check.mjs [--summary=file.json]`: checks the Helm chart, the deploy/ examples
// and skaffold.yaml offline, on a fresh clone that has only Go, Java (Maven), Python and Node:
//  - builds pinned helm, kubeconform and helm-unittest from the Go module proxy into .cache/;
//  - makes the JSON schemas of two pinned Kubernetes releases' APIs (the current one and the oldest
//    Chart.yaml admits; their OpenAPI documents in the k8s.io/kubernetes module) and of the custom
//    resources the chart and examples use (the Prometheus Operator, CloudNativePG and Strimzi
//    CRDs), since no API server runs here;
//  - `helm lint --strict` and `helm template` for both topologies and every example's values,
//    kubeconform (strict) over every rendered manifest and every manifest under deploy/, and the
//    Secrets deploy/*/secrets.sh print;
//  - the chart's unit tests (helm-unittest on charts/checkpoint/tests);
//  - skaffold.yaml against skaffold's published schema for its apiVersion, and what it points to.
// Prints one line per check and `chart: N passed, N failed`; exits non-zero on any failure.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { services } from '../packages/service-registry/services.js';
import { installDependencies, root } from './lib/bootstrap.mjs';
import { HELM_PIN, createChecks, goModule, indented, installGoTool, must, run } from './lib/checks.mjs';
import { SCHEMA_LOCATION_TEMPLATE, writeCrdSchemas, writeKubernetesSchemas } from './lib/kube-schemas.mjs';

// Pinned inputs. Changing one changes its cache key below, so the next run rebuilds it.
const PINS = {
  helm: HELM_PIN,
  kubeconform: { pkg: 'github.com/yannh/kubeconform/cmd/kubeconform', version: 'v0.8.0' },
  // Its go.mod has a replace directive, which `go install pkg@version` refuses: built in its module.
  helmUnittest: { module: 'github.com/helm-unittest/helm-unittest', version: 'v1.1.2', pkg: './cmd/helm-unittest' },
  // The release the chart is validated against, and the oldest its Chart.yaml kubeVersion admits.
  kubernetes: {
    module: 'k8s.io/kubernetes',
    versions: { current: 'v1.34.4', minimum: 'v1.27.16' },
    file: 'api/openapi-spec/swagger.json',
  },
  prometheusOperator: {
    module: 'github.com/prometheus-operator/prometheus-operator',
    version: 'v0.89.0',
    files: ['servicemonitors', 'podmonitors', 'prometheusrules'].map(
      (plural) => `example/prometheus-operator-crd/monitoring.coreos.com_${plural}.yaml`,
    ),
  },
  cloudnativePg: { module: 'github.com/cloudnative-pg/cloudnative-pg', version: 'v1.28.0', dir: 'config/crd/bases' },
  // Strimzi publishes its CRDs (the kafka.strimzi.io/v1 API) in the tests jar of its API module.
  strimzi: {
    artifact: 'io.strimzi:api:0.51.0:jar:tests',
    file: 'api-0.51.0-tests.jar',
    sha256: 'b99f69303dc507ca505b74345d93f5260621bb084b8b79447f726e54b6e66a1d',
    prefix: 'crds/v1/',
  },
  skaffold: {
    module: 'github.com/GoogleContainerTools/skaffold/v2',
    version: 'v2.16.1',
    apiVersion: 'skaffold/v4beta13',
    file: 'docs-v2/content/en/schemas/v4beta13.json',
  },
};
/** Bump when scripts/lib/kube-schemas.mjs changes what it writes. */
const SCHEMA_FORMAT = 1;
const KUBE_VERSION = PINS.kubernetes.versions.current.slice(1);
const MIN_KUBE_VERSION = PINS.kubernetes.versions.minimum.slice(1);
/** API groups the renders may assume the cluster serves (the chart renders monitoring objects only then). */
const API_VERSIONS = [
  'monitoring.coreos.com/v1',
  'monitoring.coreos.com/v1/ServiceMonitor',
  'monitoring.coreos.com/v1/PrometheusRule',
];

const chart = path.join(root, 'charts/checkpoint');
const deployDir = path.join(root, 'deploy');
const cacheDir = path.join(root, '.cache/chart-check');
const workDir = path.join(cacheDir, 'work');
const { record, finish } = createChecks('chart');

/** The tools' binaries: helm (shared with scripts/cluster-check.mjs), kubeconform, helm-unittest. */
function installTool(name) {
  return installGoTool(PINS[name], name === 'helmUnittest' ? 'helm-unittest' : undefined);
}

const goModuleDir = (module, version) => goModule(module, version, cacheDir).Dir;

// --- schemas -------------------------------------------------------------------------------

function sha256(buffer) {
  return createHash('sha256').update(buffer).digest('hex');
}

/** The Strimzi jar, through Maven (the usual client for Maven Central), checked against its pinned digest. */
function strimziJar() {
  const pin = PINS.strimzi;
  const dir = path.join(cacheDir, 'downloads', pin.artifact.replaceAll(':', '_'));
  const jar = path.join(dir, pin.file);
  if (!existsSync(jar)) {
    must(
      run('mvn', ['-B', '-q', 'dependency:copy', `-Dartifact=${pin.artifact}`, `-DoutputDirectory=${dir}`], {
        cwd: cacheDir,
      }),
      `mvn dependency:copy ${pin.artifact}`,
    );
  }
  const bytes = readFileSync(jar);
  if (sha256(bytes) !== pin.sha256) {
    rmSync(jar, { force: true });
    throw new Error(`${pin.file}: sha256 ${sha256(bytes)} is not the pinned ${pin.sha256}`);
  }
  return bytes;
}

function yamlDocuments(YAML, text, source) {
  return YAML.parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0].message}`);
    return doc.toJS({ maxAliasCount: -1 });
  });
}

/**
 * The schemas' directory, built once per set of pins. Each source is its own check, so a missing
 * one names itself; kinds without a schema then fail kubeconform (no silent skipping).
 */
function buildSchemas(YAML, unzipSync, kubeVersion) {
  const key = sha256(Buffer.from(JSON.stringify({ PINS, SCHEMA_FORMAT }))).slice(0, 12);
  const dir = path.join(cacheDir, `schemas-${kubeVersion}-${key}`);
  const done = path.join(dir, '.complete');
  if (existsSync(done)) {
    record(`schemas for Kubernetes ${kubeVersion} (cached)`, true, path.relative(root, dir));
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let complete = true;
  const source = (name, build) => {
    try {
      record(name, true, build());
    } catch (error) {
      complete = record(name, false, error.message) && complete;
    }
  };
  source(`schemas: Kubernetes v${kubeVersion} API`, () => {
    const file = path.join(goModuleDir(PINS.kubernetes.module, `v${kubeVersion}`), PINS.kubernetes.file);
    return `${writeKubernetesSchemas(JSON.parse(readFileSync(file, 'utf8')), dir)} kinds`;
  });
  source(`schemas: Prometheus Operator ${PINS.prometheusOperator.version} CRDs`, () => {
    const moduleDir = goModuleDir(PINS.prometheusOperator.module, PINS.prometheusOperator.version);
    const docs = PINS.prometheusOperator.files.flatMap((f) =>
      yamlDocuments(YAML, readFileSync(path.join(moduleDir, f), 'utf8'), f),
    );
    return writeCrdSchemas(docs, dir).join(', ');
  });
  source(`schemas: CloudNativePG ${PINS.cloudnativePg.version} CRDs`, () => {
    const crdDir = path.join(
      goModuleDir(PINS.cloudnativePg.module, PINS.cloudnativePg.version),
      PINS.cloudnativePg.dir,
    );
    const docs = readdirSync(crdDir)
      .filter((f) => f.endsWith('.yaml') && f.startsWith('postgresql.cnpg.io_'))
      .flatMap((f) => yamlDocuments(YAML, readFileSync(path.join(crdDir, f), 'utf8'), f));
    return writeCrdSchemas(docs, dir).join(', ');
  });
  source(`schemas: Strimzi ${PINS.strimzi.artifact.split(':')[2]} CRDs`, () => {
    const files = unzipSync(strimziJar(), {
      filter: (file) => file.name.startsWith(PINS.strimzi.prefix) && file.name.endsWith('.yaml'),
    });
    const text = new TextDecoder();
    const docs = Object.entries(files).flatMap(([name, bytes]) => yamlDocuments(YAML, text.decode(bytes), name));
    const written = writeCrdSchemas(docs, dir);
    for (const kind of ['Kafka', 'KafkaNodePool', 'KafkaTopic', 'KafkaUser']) {
      if (!written.includes(`kafka.strimzi.io/v1/${kind}`))
        throw new Error(`no kafka.strimzi.io/v1 ${kind} in the jar`);
    }
    return written.length + ' kinds';
  });
  source(`schemas: skaffold ${PINS.skaffold.apiVersion}`, () => {
    const file = path.join(goModuleDir(PINS.skaffold.module, PINS.skaffold.version), PINS.skaffold.file);
    const [group, version] = PINS.skaffold.apiVersion.split('/');
    const target = path.join(dir, group, version, 'config.json');
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(file, target);
    return path.relative(dir, target);
  });
  if (complete) writeFileSync(done, new Date().toISOString());
  return dir;
}

// --- chart ---------------------------------------------------------------------------------

/** Values that make each topology installable without an example (the URLs are never dialled). */
const TOPOLOGY_VALUES = {
  'topology-microservices': {
    topology: 'microservices',
    postgres: {
      urls: Object.fromEntries(
        services.map(({ name }) => [name, `postgres://cp_${name}:secret@postgres.db:5432/checkpoint?sslmode=disable`]),
      ),
    },
    kafka: { brokers: 'kafka-0.kafka:9092,kafka-1.kafka:9092' },
    // No Secret to look up when rendering offline: the chart makes the secrets only when asked.
    secrets: { generate: true },
  },
  'topology-all-in-one': {
    topology: 'all-in-one',
    postgres: { urls: { admin: 'postgres://postgres:secret@postgres.db:5432/checkpoint?sslmode=disable' } },
    secrets: { generate: true },
  },
};

function listFiles(dir, accept) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full, accept) : accept(entry.name) ? [full] : [];
    })
    .sort();
}

const isValues = (name) => /^values.*\.ya?ml$/.test(name);
const isSkaffold = (name) => name === 'skaffold.yaml';
const isYaml = (name) => /\.ya?ml$/.test(name);

/** The value sets to lint and render: both topologies, the chart's ci/ files, every deploy/ values file. */
function valueSets() {
  const generated = path.join(workDir, 'values');
  mkdirSync(generated, { recursive: true });
  const sets = Object.entries(TOPOLOGY_VALUES).map(([name, values]) => {
    const file = path.join(generated, `${name}.yaml`);
    writeFileSync(file, JSON.stringify(values, null, 2)); // JSON is YAML
    return { name, files: [file], set: {} };
  });
  for (const file of listFiles(path.join(chart, 'ci'), isYaml)) {
    sets.push({ name: `ci/${path.basename(file)}`, files: [file], set: {} });
  }
  for (const file of listFiles(deployDir, isValues))
    sets.push({ name: path.relative(root, file), files: [file], set: {} });
  return sets;
}

function kubeconform(kubeconformBin, schemas, files, options = {}) {
  const location = path.join(schemas, SCHEMA_LOCATION_TEMPLATE);
  return run(kubeconformBin, ['-strict', '-summary', '-schema-location', location, ...files], options);
}

/** "Summary: 25 resources found in 1 file - Valid: 25, Invalid: 0, Errors: 0, Skipped: 0" → counts. */
function kubeconformCounts(out) {
  const m = /(\d+) resources? found in (\d+) files? - Valid: (\d+), Invalid: (\d+), Errors: (\d+), Skipped: (\d+)/.exec(
    out,
  );
  return m ? { resources: +m[1], valid: +m[3], invalid: +m[4], errors: +m[5], skipped: +m[6] } : undefined;
}

function checkManifests(label, kubeconformBin, schemas, files, kubeVersion = KUBE_VERSION) {
  const r = kubeconform(kubeconformBin, schemas, files);
  const counts = kubeconformCounts(r.out);
  const ok = r.ok && counts !== undefined && counts.valid > 0 && counts.valid === counts.resources;
  if (!ok && r.ok) indented(r.out);
  return record(
    label,
    ok,
    counts ? `${counts.valid}/${counts.resources} valid (Kubernetes ${kubeVersion})` : 'no kubeconform summary',
  );
}

const helmEnv = () => ({
  HELM_CACHE_HOME: path.join(workDir, 'helm/cache'),
  HELM_CONFIG_HOME: path.join(workDir, 'helm/config'),
  HELM_DATA_HOME: path.join(workDir, 'helm/data'),
});

/** helm lint --strict, helm template and kubeconform of one value set (values files + --set pairs). */
function checkValueSet(tools, schemas, set, kubeVersion = KUBE_VERSION) {
  const name = kubeVersion === KUBE_VERSION ? set.name : `${set.name} @ ${kubeVersion}`;
  const values = [
    ...set.files.flatMap((f) => ['-f', f]),
    ...Object.entries(set.set).flatMap(([key, value]) => ['--set', `${key}=${value}`]),
  ];
  const lint = run(tools.helm, ['lint', '--strict', chart, ...values, '--kube-version', kubeVersion], {
    env: helmEnv(),
  });
  record(`helm lint --strict [${name}]`, lint.ok);
  const capabilities = ['--kube-version', kubeVersion, ...API_VERSIONS.flatMap((v) => ['--api-versions', v])];
  const args = ['template', 'checkpoint', chart, '--namespace', 'checkpoint', ...values, ...capabilities];
  const template = run(tools.helm, args, { env: helmEnv() });
  if (!record(`helm template [${name}]`, template.ok)) return;
  const out = path.join(workDir, 'rendered', `${name.replace(/[^a-zA-Z0-9.-]+/g, '_')}.yaml`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, template.stdout);
  checkManifests(`kubeconform [${name}]`, tools.kubeconform, schemas, [out], kubeVersion);
  return template.stdout;
}

/**
 * Every value set against the current Kubernetes release and the oldest one Chart.yaml admits
 * (its templates choose by .Capabilities.KubeVersion; an API field newer than that must not leak).
 */
function checkChart(YAML, tools, schemaDirs) {
  rmSync(path.join(workDir, 'rendered'), { recursive: true, force: true });
  const declared = YAML.parse(readFileSync(path.join(chart, 'Chart.yaml'), 'utf8')).kubeVersion ?? '';
  const floor = /^>=\s*(\d+\.\d+)/.exec(String(declared))?.[1];
  record(
    `Chart.yaml kubeVersion (${declared}) starts at the validated minimum ${MIN_KUBE_VERSION}`,
    floor !== undefined && MIN_KUBE_VERSION.startsWith(`${floor}.`),
  );
  for (const set of valueSets()) {
    for (const version of [KUBE_VERSION, MIN_KUBE_VERSION]) checkValueSet(tools, schemaDirs[version], set, version);
  }
}

function checkDeployManifests(kubeconformBin, schemas) {
  const files = listFiles(deployDir, (name) => isYaml(name) && !isValues(name) && !isSkaffold(name));
  if (files.length === 0) return record('kubeconform deploy/ manifests', false, 'none found under deploy/');
  for (const file of files) checkManifests(`kubeconform ${path.relative(root, file)}`, kubeconformBin, schemas, [file]);
}

/**
 * Each deploy/*\/secrets.sh prints the Secrets its example needs: run it (test inputs in the
 * environment), validate what it prints, and check the values it must hold.
 */
function checkSecretScripts(YAML, kubeconformBin, schemas) {
  const secrets = new Map();
  for (const script of listFiles(deployDir, (name) => name === 'secrets.sh')) {
    const label = path.relative(root, script);
    const r = run('sh', [script, 'checkpoint'], {
      env: { OIDC_CLIENT_SECRET: "client'secret", SMTP_URL: 'smtps://mailer:pw@smtp.example.org:465' },
    });
    if (!record(`${label} runs`, r.ok)) continue;
    const out = path.join(workDir, 'secrets', `${label.replace(/[^a-zA-Z0-9.-]+/g, '_')}.yaml`);
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, r.stdout);
    checkManifests(`kubeconform ${label} output`, kubeconformBin, schemas, [out]);
    const problems = [];
    for (const doc of yamlDocuments(YAML, r.stdout, label)) {
      if (doc?.kind !== 'Secret') continue;
      secrets.set(doc.metadata.name, doc.stringData ?? {});
      for (const [key, value] of Object.entries(doc.stringData ?? {})) {
        if (typeof value !== 'string' || value === '') problems.push(`${doc.metadata.name}.${key} is empty`);
        else if (key.endsWith('-url') && !URL.canParse(value))
          problems.push(`${doc.metadata.name}.${key} is not a URL`);
        else if (key === 'secrets-key' && Buffer.from(value, 'base64').length !== 32) {
          problems.push(`${doc.metadata.name}.secrets-key is not 32 bytes of base64`);
        }
      }
    }
    record(`${label} prints well-formed secrets`, problems.length === 0, problems.join('; '));
  }
  return secrets;
}

/**
 * The Secrets each deploy/ values file names (existingSecret) are among those the secrets.sh
 * scripts print, with the keys the chart reads: the examples fit together.
 */
function checkSecretReferences(YAML, secrets, chartDefaults) {
  const microserviceKeys = services.map((s) => s.name);
  for (const file of listFiles(deployDir, isValues)) {
    const values = yamlDocuments(YAML, readFileSync(file, 'utf8'), file)[0] ?? {};
    const topology = values.topology ?? chartDefaults.topology;
    const keys = { ...chartDefaults.postgres.secretKeys, ...values.postgres?.secretKeys };
    const wanted = [];
    if (values.postgres?.existingSecret) {
      const services = topology === 'all-in-one' ? ['admin'] : microserviceKeys;
      wanted.push([values.postgres.existingSecret, services.map((s) => keys[s])]);
    }
    if (values.secrets?.existingSecret)
      wanted.push([values.secrets.existingSecret, ['service-token-secret', 'secrets-key']]);
    if (values.kafka?.existingSecret)
      wanted.push([values.kafka.existingSecret, [values.kafka.existingSecretKey ?? 'brokers']]);
    const missing = wanted.flatMap(([name, needed]) =>
      !secrets.has(name)
        ? [`Secret ${name}`]
        : needed.filter((k) => !(k in secrets.get(name))).map((k) => `${name}.${k}`),
    );
    record(
      `${path.relative(root, file)}: its existingSecrets are made by a secrets.sh`,
      missing.length === 0,
      missing.join(', '),
    );
  }
}

/**
 * Manifests the schemas must refuse: if a schema source silently became permissive (a missing
 * kind, open objects), every other kubeconform check would pass for nothing.
 */
const MUST_FAIL = {
  'a misspelt Deployment field': {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'x' },
    spec: {
      replica: 2,
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'x', image: 'x' }] } },
    },
  },
  'a Service port that is not a number': {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'x' },
    spec: { ports: [{ port: 'eighty' }] },
  },
  'an unknown ServiceMonitor field': {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'x' },
    spec: { selector: {}, endpoint: [{ port: 'metrics' }] },
  },
  'a Cluster without instances': {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'x' },
    spec: {},
  },
  'a KafkaNodePool without roles': {
    apiVersion: 'kafka.strimzi.io/v1',
    kind: 'KafkaNodePool',
    metadata: { name: 'x' },
    spec: { replicas: 1, storage: { type: 'ephemeral' } },
  },
  'a kind without a schema': { apiVersion: 'example.org/v1', kind: 'Unknown', metadata: { name: 'x' } },
};

function checkSchemasRefuse(kubeconformBin, schemas) {
  const dir = path.join(workDir, 'must-fail');
  mkdirSync(dir, { recursive: true });
  for (const [what, manifest] of Object.entries(MUST_FAIL)) {
    const file = path.join(dir, `${what.replace(/[^a-zA-Z0-9]+/g, '-')}.yaml`);
    writeFileSync(file, JSON.stringify(manifest));
    const r = kubeconform(kubeconformBin, schemas, [file], { quiet: true });
    const counts = kubeconformCounts(r.out);
    record(`kubeconform refuses ${what}`, !r.ok && counts !== undefined && counts.valid === 0);
  }
}

/** The unit tests of the chart; one check per test case (from helm-unittest's JUnit report). */
function checkUnitTests(helmUnittest) {
  const tests = listFiles(path.join(chart, 'tests'), (name) => name.endsWith('_test.yaml'));
  if (tests.length === 0) return record('helm-unittest', false, 'no charts/checkpoint/tests/*_test.yaml');
  const report = path.join(workDir, 'helm-unittest.xml');
  rmSync(report, { force: true });
  const r = run(helmUnittest, ['--strict', '--color=false', '-t', 'JUnit', '-o', report, chart], { echo: true });
  const xml = existsSync(report) ? readFileSync(report, 'utf8') : '';
  const cases = [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map(
    ([, attributes, , body]) => ({
      suite: unescapeXml(/\sclassname="([^"]*)"/.exec(attributes)?.[1] ?? ''),
      name: unescapeXml(/\sname="([^"]*)"/.exec(attributes)?.[1] ?? '?'),
      failed: /<failure|<error/.test(body ?? ''),
    }),
  );
  if (cases.length === 0) return record('helm-unittest', false, r.ok ? 'no test cases in the report' : 'failed to run');
  for (const c of cases) record(`helm-unittest [${c.suite}] ${c.name}`, !c.failed);
  // A suite that fails to load may leave no test case behind: the exit status still counts.
  if (!r.ok && !cases.some((c) => c.failed)) record('helm-unittest exit status', false);
}

function unescapeXml(text) {
  return text
    .replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)))
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

// --- skaffold ------------------------------------------------------------------------------

/** Applies a profile's JSON patches (add, replace, remove; what skaffold.yaml uses) to a copy of a config. */
function applyPatches(config, patches) {
  const copy = structuredClone(config);
  for (const patch of patches ?? []) {
    const keys = patch.path
      .split('/')
      .slice(1)
      .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
    const last = keys.pop();
    let parent = copy;
    for (const key of keys) {
      if (parent?.[key] === undefined) throw new Error(`patch ${patch.op} ${patch.path}: ${key} does not exist`);
      parent = parent[key];
    }
    if (patch.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (patch.op === 'add' && Array.isArray(parent)) {
      parent.splice(last === '-' ? parent.length : Number(last), 0, patch.value);
    } else if (patch.op === 'add' || patch.op === 'replace') {
      if (patch.op === 'replace' && parent[last] === undefined)
        throw new Error(`patch replace ${patch.path}: nothing there`);
      parent[last] = patch.value;
    } else {
      throw new Error(`patch op ${patch.op} is not handled by the checks`);
    }
  }
  return copy;
}

/**
 * skaffold.yaml and the configs it requires: each against skaffold's schema (kubeconform picks it
 * by apiVersion/kind); the files they name exist; and each helm release, with and without each
 * profile, lints and renders to valid manifests as skaffold would deploy it.
 */
function checkSkaffold(YAML, tools, schemas) {
  const files = [path.join(root, 'skaffold.yaml'), ...listFiles(deployDir, isSkaffold)];
  if (!existsSync(files[0])) return record('skaffold.yaml', false, 'missing');
  for (const file of files) {
    const label = path.relative(root, file);
    const dir = path.dirname(file);
    const docs = yamlDocuments(YAML, readFileSync(file, 'utf8'), label);
    const wrong = docs.find((d) => d?.apiVersion !== PINS.skaffold.apiVersion);
    record(
      `${label} apiVersion ${PINS.skaffold.apiVersion}`,
      !wrong,
      wrong ? `found ${wrong?.apiVersion}; the pinned schema is ${PINS.skaffold.apiVersion}` : '',
    );
    const r = kubeconform(tools.kubeconform, schemas, [file]);
    const counts = kubeconformCounts(r.out);
    record(
      `${label} matches skaffold's schema`,
      r.ok && counts?.valid === docs.length,
      counts ? `${counts.valid}/${docs.length} configs valid` : 'no kubeconform summary',
    );

    const variants = [];
    const problems = [];
    for (const config of docs) {
      variants.push({ name: 'default', config });
      for (const profile of config.profiles ?? []) {
        try {
          variants.push({ name: `profile ${profile.name}`, config: applyPatches(config, profile.patches) });
        } catch (error) {
          problems.push(`profile ${profile.name}: ${error.message}`);
        }
      }
    }
    const missing = new Set();
    const exists = (p) => existsSync(path.resolve(dir, p)) || missing.add(p);
    for (const { config } of variants) {
      for (const required of config.requires ?? []) if (required.path) exists(required.path);
      for (const artifact of config.build?.artifacts ?? []) {
        exists(artifact.context ?? '.');
        if (artifact.docker) exists(path.join(artifact.context ?? '.', artifact.docker.dockerfile ?? 'Dockerfile'));
      }
      for (const release of config.deploy?.helm?.releases ?? []) {
        if (release.chartPath) exists(release.chartPath);
        for (const values of release.valuesFiles ?? []) exists(values);
      }
      for (const raw of config.manifests?.rawYaml ?? []) exists(raw);
      for (const hook of config.deploy?.kubectl?.hooks?.before ?? []) if (hook.host?.dir) exists(hook.host.dir);
    }
    for (const p of missing) problems.push(`${p} does not exist`);
    record(`${label} references and profiles`, problems.length === 0, problems.join('; '));
    for (const config of docs) checkHostHooks(YAML, label, dir, config);

    // What skaffold deploys: its values files, setValues, and setValueTemplates with the image it built.
    for (const { name, config } of variants) {
      for (const release of config.deploy?.helm?.releases ?? []) {
        if (path.resolve(dir, release.chartPath ?? '') !== chart) continue;
        const templated = Object.fromEntries(
          Object.entries(release.setValueTemplates ?? {}).map(([key, value]) => [
            key,
            String(value)
              .replace(/\{\{\s*\.IMAGE_REPO_\w+\s*\}\}/g, 'checkpoint')
              .replace(/\{\{\s*\.IMAGE_TAG_\w+\s*\}\}/g, 'dev'),
          ]),
        );
        const unresolved = Object.entries(templated).filter(([, v]) => v.includes('{{'));
        if (unresolved.length > 0) {
          record(
            `${label} release ${release.name} [${name}]`,
            false,
            `templates the checks cannot resolve: ${unresolved.map(([k]) => k)}`,
          );
          continue;
        }
        const rendered = checkValueSet(tools, schemas, {
          name: `${label} release ${release.name}, ${name}`,
          files: (release.valuesFiles ?? []).map((f) => path.resolve(dir, f)),
          set: { ...release.setValues, ...templated },
        });
        if (rendered !== undefined) checkPortForwards(YAML, `${label} [${name}]`, config, release, rendered);
      }
    }
  }
}

// A stand-in kubectl for the hooks: `get secret <name>` succeeds once a Secret of that name was
// applied; `apply -f -` records the objects it is given; `create … --dry-run=client -o yaml`
// prints the object. State and log live in FAKE_KUBECTL_STATE (a JSON file). Two of them run at
// once in a pipeline (create | apply): only apply writes the state, and by renaming a complete
// file over it, so the other never reads it half-written.
const FAKE_KUBECTL = `#!/usr/bin/env node
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
const YAML = await import(process.env.FAKE_KUBECTL_YAML);
const file = process.env.FAKE_KUBECTL_STATE;
const state = JSON.parse(readFileSync(file, 'utf8'));
const args = process.argv.slice(2).filter((a, i, all) => a !== '-n' && all[i - 1] !== '-n');
let status = 0;
if (args[0] === 'get' && args[1] === 'secret') status = state.secrets.includes(args[2]) ? 0 : 1;
else if (args[0] === 'create' && args.includes('--dry-run=client')) {
  const kind = args[1] === 'namespace' ? 'Namespace' : args[1];
  process.stdout.write(YAML.stringify({ apiVersion: 'v1', kind, metadata: { name: args[2] } }));
} else if (args[0] === 'apply' && args.includes('-')) {
  for (const doc of YAML.parseAllDocuments(readFileSync(0, 'utf8'))) {
    const object = doc.toJS();
    if (!object) continue;
    state.applied.push(object.kind + '/' + object.metadata.name);
    if (object.kind === 'Secret') state.secrets.push(object.metadata.name);
  }
  writeFileSync(file + '.' + process.pid, JSON.stringify(state));
  renameSync(file + '.' + process.pid, file);
} else status = 2;
process.exit(status);
`;

/**
 * The host hooks of a config (e.g. deploy/local's namespace and Secret), run twice with a stand-in
 * kubectl: they must succeed, and a Secret they make must be applied once only (its passwords are
 * kept by the database volume, so a second run must not replace them).
 */
function checkHostHooks(YAML, label, dir, config) {
  const hooks = (config.deploy?.kubectl?.hooks?.before ?? []).filter((hook) => hook.host);
  if (hooks.length === 0) return;
  const bin = path.join(workDir, 'fake-kubectl');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'kubectl'), FAKE_KUBECTL, { mode: 0o755 });
  const stateFile = path.join(bin, 'state.json');
  writeFileSync(stateFile, JSON.stringify({ applied: [], secrets: [] }));
  const env = {
    PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    FAKE_KUBECTL_STATE: stateFile,
    FAKE_KUBECTL_YAML: pathToFileURL(path.join(root, 'node_modules/yaml/dist/index.js')).href,
  };
  const problems = [];
  for (const round of [1, 2]) {
    for (const hook of hooks) {
      const [cmd, ...args] = hook.host.command;
      const r = run(cmd, args, { env, cwd: path.resolve(dir, hook.host.dir ?? '.') });
      if (!r.ok) problems.push(`round ${round}: ${hook.host.command.join(' ')} failed`);
    }
  }
  const { applied } = JSON.parse(readFileSync(stateFile, 'utf8'));
  const secrets = applied.filter((a) => a.startsWith('Secret/'));
  if (secrets.length === 0) problems.push('no Secret was applied');
  for (const secret of new Set(secrets)) {
    const times = secrets.filter((a) => a === secret).length;
    if (times !== 1) problems.push(`${secret} applied ${times} times in two runs`);
  }
  record(
    `${label} hooks run twice make ${[...new Set(applied)].join(', ') || 'nothing'}, each Secret once`,
    problems.length === 0,
    problems.join('; '),
  );
}

/** Each service port-forward names a Service, and a port of it, that the release renders. */
function checkPortForwards(YAML, label, config, release, rendered) {
  const services = yamlDocuments(YAML, rendered, label).filter((d) => d?.kind === 'Service');
  for (const forward of config.portForward ?? []) {
    if (forward.resourceType !== 'service') continue;
    if ((forward.namespace ?? release.namespace) !== release.namespace) continue;
    const service = services.find((d) => d.metadata?.name === forward.resourceName);
    const port = service?.spec?.ports?.find((p) => p.port === Number(forward.port) || p.name === forward.port);
    record(
      `${label} port-forward service/${forward.resourceName}:${forward.port}`,
      port !== undefined,
      service ? (port ? '' : 'the Service has no such port') : 'the release renders no such Service',
    );
  }
}

// --- main ----------------------------------------------------------------------------------

async function main() {
  if (!existsSync(path.join(chart, 'Chart.yaml'))) {
    record('chart', false, `${path.relative(root, chart)}/Chart.yaml is missing`);
    return finish();
  }
  installDependencies(); // the YAML parser and the zip reader below are npm packages
  mkdirSync(workDir, { recursive: true });
  if (!run('go', ['version']).ok) {
    record('go toolchain', false, 'the Go toolchain (`go`) is needed to build helm, kubeconform and helm-unittest');
    return finish();
  }
  const YAML = await import('yaml');
  const { unzipSync } = await import('fflate'); // reads the Strimzi jar
  const tools = {};
  for (const name of ['helm', 'kubeconform', 'helmUnittest']) {
    try {
      tools[name] = installTool(name);
      record(`tool ${name} ${PINS[name].version}`, true);
    } catch (error) {
      record(`tool ${name} ${PINS[name].version}`, false, error.message);
    }
  }
  const schemaDirs = Object.fromEntries(
    [KUBE_VERSION, MIN_KUBE_VERSION].map((v) => [v, buildSchemas(YAML, unzipSync, v)]),
  );
  const schemas = schemaDirs[KUBE_VERSION];
  const chartDefaults = YAML.parse(readFileSync(path.join(chart, 'values.yaml'), 'utf8'));
  if (tools.helm && tools.kubeconform) checkChart(YAML, tools, schemaDirs);
  if (tools.kubeconform) {
    checkSchemasRefuse(tools.kubeconform, schemas);
    checkDeployManifests(tools.kubeconform, schemas);
    checkSecretReferences(YAML, checkSecretScripts(YAML, tools.kubeconform, schemas), chartDefaults);
  }
  if (tools.helm && tools.kubeconform) checkSkaffold(YAML, tools, schemas);
  if (tools.helmUnittest) checkUnitTests(tools.helmUnittest);
  finish();
}

await main();
