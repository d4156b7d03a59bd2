// `node scripts/cluster-check.mjs [--summary=file.json]`: installs the Helm chart on a real
// Kubernetes control plane built here, with the Pod Security `restricted` level enforced.
//  - builds etcd, kube-apiserver, kube-controller-manager, kube-scheduler (k8s.io/kubernetes at the
//    release chart-check validates against; one `go build`, so the four share their compilation)
//    and kwok (in its own module, on its own pinned Kubernetes libraries) from the Go module proxy,
//    once per set of pins, into .cache/cluster-check/;
//  - starts them on 127.0.0.1 (free ports, a temporary directory, certificates made here): kwok
//    stands in for the kubelet on one fake Node, so pods are scheduled, admitted and marked Ready
//    (and pods that run once, such as the migrate Job's and `helm test`'s, marked Succeeded), but no
//    container runs;
//  - for each topology: `helm install --wait` into a namespace that enforces `restricted` (a pod
//    breaking it is refused by the API server), the migrate hook Job complete, every Deployment
//    available, `helm upgrade --wait`, `helm test`, `helm uninstall`, and then no object of the
//    release left in any namespaced resource the API server serves (except the Secret the chart
//    documents as kept).
// Prints one line per check and `cluster: N passed, N failed`; exits non-zero on any failure.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib/bootstrap.mjs';
import { HELM_PIN, createChecks, goModule, installGoTool, must, run } from './lib/checks.mjs';
import {
  KUBERNETES_PINS,
  Processes,
  buildKubernetes,
  sleep,
  startControlPlane,
  waitFor,
} from './lib/control-plane.mjs';

// Pinned inputs. Changing one changes the build's cache key, so the next run rebuilds.
const PINS = {
  // Kubernetes and etcd: scripts/lib/control-plane.mjs (shared with scripts/kubelet-check.mjs).
  ...KUBERNETES_PINS,
  // Built in its own module with the k8s.io/* versions its go.mod pins (v0.33): against the
  // control plane's v0.34.4 libraries it does not compile (metav1.InitialEventsListBlueprintAnnotationKey).
  kwok: { module: 'sigs.k8s.io/kwok', version: 'v0.7.0', pkg: 'sigs.k8s.io/kwok/cmd/kwok' },
};
/** Bump when the generated build module below changes. */
const BUILD_FORMAT = 2;
const BINARIES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok'];
const TIMEOUT = '5m0s';
/** How long the garbage collector may take to remove the dependants of what `helm uninstall` deleted. */
const GC_GRACE_MS = 120_000;

const chart = path.join(root, 'charts/checkpoint');
const cacheDir = path.join(root, '.cache/cluster-check');
const { record, finish } = createChecks('cluster');

// --- build ---------------------------------------------------------------------------------

/** The five binaries, built once per set of pins (niced: the other lane's tests keep their CPU). */
function buildBinaries() {
  const key = createHash('sha256').update(JSON.stringify({ PINS, BUILD_FORMAT })).digest('hex').slice(0, 12);
  const dir = path.join(cacheDir, `build-${key}`);
  const bin = path.join(dir, 'bin');
  if (existsSync(path.join(dir, '.complete'))) return { bin, seconds: undefined };
  console.log(`› building ${BINARIES.join(', ')} from the Go module proxy (first run only, several minutes)`);
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  buildKubernetes(dir, ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);
  // kwok's go.mod has no replace directives, so `go install pkg@version` builds it with its own pins.
  must(
    run('nice', ['-n', '19', 'go', 'install', '-trimpath', '-ldflags=-s -w', `${PINS.kwok.pkg}@${PINS.kwok.version}`], {
      cwd: dir,
      env: { GOFLAGS: '-mod=mod', GOBIN: bin },
    }),
    'go install kwok',
  );
  writeFileSync(path.join(dir, '.complete'), '');
  return { bin, seconds: (Date.now() - started) / 1000 };
}

// --- control plane -------------------------------------------------------------------------

/** kwok's pod stages: its defaults, with `pod-complete` widened from Job pods to every pod that runs once. */
function kwokConfig(dir) {
  const stages = path.join(goModule(PINS.kwok.module, PINS.kwok.version, cacheDir).Dir, 'kustomize/stage/pod/fast');
  const read = (name) => readFileSync(path.join(stages, `${name}.yaml`), 'utf8');
  const jobOnly = /( *)- key: '\.metadata\.ownerReferences\.\[\]\.kind'\n\s*operator: 'In'\n\s*values:\n\s*- 'Job'\n/;
  const complete = read('pod-complete');
  if (!jobOnly.test(complete)) throw new Error("kwok's pod-complete stage no longer selects Job pods as expected");
  const runOnce = complete.replace(
    jobOnly,
    (_, indent) =>
      `${indent}- key: '.spec.restartPolicy'\n${indent}  operator: 'In'\n${indent}  values:\n${indent}  - 'Never'\n${indent}  - 'OnFailure'\n`,
  );
  const file = path.join(dir, 'kwok.yaml');
  writeFileSync(file, [read('pod-ready'), runOnce, read('pod-delete')].join('\n---\n'));
  return file;
}

async function startControlPlaneWithKwok(bin, dir, processes) {
  const { api, admin } = await startControlPlane(bin, dir, processes);
  processes.start('kwok', path.join(bin, 'kwok'), [
    `--kubeconfig=${admin}`,
    `--config=${kwokConfig(dir)}`,
    '--manage-all-nodes=false',
    '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
    '--node-ip=127.0.0.1',
    '--node-port=0',
  ]);
  return { api, admin };
}

/** One fake Node that kwok keeps Ready; what it reports is what the scheduler fits pods into. */
async function addNode(api) {
  const name = 'kwok-node-0';
  const created = await api('POST', '/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { 'kwok.x-k8s.io/node': 'fake' },
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        type: 'kwok',
      },
    },
  });
  if (created.status !== 201) throw new Error(`create Node: ${created.status} ${JSON.stringify(created.body)}`);
  const capacity = { cpu: '32', memory: '128Gi', pods: '110' };
  const patched = await api('PATCH', `/api/v1/nodes/${name}/status`, { status: { capacity, allocatable: capacity } });
  if (patched.status !== 200)
    throw new Error(`patch the Node status: ${patched.status} ${JSON.stringify(patched.body)}`);
  await waitFor(
    'the kwok Node Ready',
    async () => {
      const node = (await api('GET', `/api/v1/nodes/${name}`)).body;
      return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
    },
    60_000,
  );
}

// --- checks --------------------------------------------------------------------------------

const SERVICES = ['identity', 'class', 'assessment', 'generation', 'analytics', 'integrations'];

/** Values for one topology, with test-only credentials made for this run (nothing dials them). */
function topologyValues(topology) {
  const password = () => randomBytes(12).toString('hex');
  const url = (role) => `postgres://${role}:${password()}@postgres.db.svc:5432/checkpoint?sslmode=disable`;
  return topology === 'microservices'
    ? {
        topology,
        postgres: { urls: Object.fromEntries(SERVICES.map((s) => [s, url(`cp_${s}`)])) },
        kafka: { brokers: 'kafka-0.kafka.svc:9092' },
        secrets: { generate: true },
      }
    : { topology, postgres: { urls: { admin: url('postgres') } }, secrets: { generate: true } };
}

const RESTRICTED = Object.fromEntries(
  ['enforce', 'audit', 'warn'].flatMap((mode) => [
    [`pod-security.kubernetes.io/${mode}`, 'restricted'],
    [`pod-security.kubernetes.io/${mode}-version`, 'latest'],
  ]),
);

/** Every namespaced resource the API server serves that can be listed (through discovery). */
async function namespacedResources(api) {
  const groups = [{ path: '/api/v1' }];
  for (const group of (await api('GET', '/apis')).body.groups ?? []) {
    groups.push({ path: `/apis/${group.preferredVersion.groupVersion}` });
  }
  const resources = [];
  for (const { path: groupPath } of groups) {
    for (const r of (await api('GET', groupPath)).body.resources ?? []) {
      if (r.namespaced && !r.name.includes('/') && r.verbs.includes('list'))
        resources.push({ groupPath, name: r.name });
    }
  }
  return resources;
}

/** The objects in `namespace` that belong to `release` (Helm's annotation or the chart's instance label). */
async function releaseObjects(api, namespace, release) {
  const left = [];
  for (const { groupPath, name } of await namespacedResources(api)) {
    const list = await api('GET', `${groupPath}/namespaces/${namespace}/${name}`);
    for (const item of list.body.items ?? []) {
      const { labels = {}, annotations = {} } = item.metadata;
      if (annotations['meta.helm.sh/release-name'] === release || labels['app.kubernetes.io/instance'] === release) {
        left.push(`${name}/${item.metadata.name}`);
      }
    }
  }
  return left;
}

async function checkTopology(helm, env, api, topology) {
  const namespace = `checkpoint-${topology}`;
  const release = 'cp';
  const label = `[${topology}]`;
  const created = await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace, labels: RESTRICTED },
  });
  if (
    !record(
      `namespace enforcing restricted ${label}`,
      created.status === 201,
      created.status === 201 ? '' : JSON.stringify(created.body),
    )
  ) {
    return;
  }
  // The control: a pod with no securityContext at all must be refused here (a dry run: nothing is
  // made), or an install passing below would say nothing about `restricted`. Admission first looks
  // up the pod's ServiceAccount, which the controller manager makes in the new namespace.
  await waitFor(
    `the default ServiceAccount in ${namespace}`,
    async () => (await api('GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`)).status === 200,
    60_000,
  );
  const loose = await api('POST', `/api/v1/namespaces/${namespace}/pods?dryRun=All`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'restricted-control' },
    spec: { containers: [{ name: 'c', image: 'localhost/none:0' }] },
  });
  const message = String(loose.body?.message ?? loose.body);
  record(
    `a pod breaking restricted is refused ${label}`,
    loose.status === 403 && message.includes('violates PodSecurity "restricted'),
    `${loose.status}: ${message.slice(0, 100)}`,
  );
  const valuesFile = path.join(env.dir, `${topology}-values.json`);
  writeFileSync(valuesFile, JSON.stringify(topologyValues(topology)));
  const common = ['--namespace', namespace, '--wait', '--wait-for-jobs', '--timeout', TIMEOUT];
  const helmRun = (...args) => run(helm, args, { env: env.helm, timeout: 8 * 60_000 });

  const install = helmRun('install', release, chart, '-f', valuesFile, ...common);
  if (!record(`helm install --wait ${label}`, install.ok)) return;
  await checkMigrateCompleted(api, namespace, `${release}-checkpoint-migrate`, 1, `on install ${label}`);
  const deployments = (await api('GET', `/apis/apps/v1/namespaces/${namespace}/deployments`)).body.items ?? [];
  const unavailable = deployments.filter(
    (d) => !d.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True'),
  );
  record(
    `Deployments available ${label}`,
    deployments.length > 0 && unavailable.length === 0,
    `${deployments.length - unavailable.length}/${deployments.length}: ${deployments.map((d) => d.metadata.name).join(', ')}`,
  );
  const upgrade = helmRun('upgrade', release, chart, '-f', valuesFile, ...common);
  record(`helm upgrade --wait ${label}`, upgrade.ok);
  await checkMigrateCompleted(api, namespace, `${release}-checkpoint-migrate`, 2, `on upgrade ${label}`);
  const test = helmRun('test', release, '--namespace', namespace, '--timeout', TIMEOUT);
  record(`helm test ${label}`, test.ok, test.ok ? '' : test.out.trim().split('\n').slice(-1)[0]);
  const uninstall = helmRun('uninstall', release, '--namespace', namespace, '--wait', '--timeout', TIMEOUT);
  record(`helm uninstall --wait ${label}`, uninstall.ok);
  // What docs/kubernetes.md says outlives the release: the generated secrets ("Secrets": kept on
  // purpose) and the migrate hook's Secret copy, ServiceAccount and NetworkPolicy ("Migrations":
  // before-hook-creation only; its cleanup command is given there).
  const migrate = `${release}-checkpoint-migrate`;
  const kept = new Set([
    `secrets/${release}-checkpoint-secrets`,
    ...['secrets', 'serviceaccounts', 'networkpolicies'].map((kind) => `${kind}/${migrate}`),
  ]);
  // `helm uninstall --wait` waits for the objects it deleted; their dependants (a ReplicaSet's
  // pods) go after, through the garbage collector: they are given a bounded time to go.
  const started = Date.now();
  let objects, left;
  for (;;) {
    objects = await releaseObjects(api, namespace, release);
    left = objects.filter((o) => !kept.has(o));
    if (left.length === 0 || Date.now() - started > GC_GRACE_MS) break;
    await sleep(2000);
  }
  const stayed = objects.filter((o) => kept.has(o));
  const waited = `${Math.round((Date.now() - started) / 1000)} s after uninstall`;
  record(
    `nothing of the release left after uninstall ${label}`,
    left.length === 0,
    left.length > 0
      ? `left ${waited}: ${left.join(', ')}`
      : `${waited}; kept as documented: ${stayed.join(', ') || 'none'}`,
  );
}

/**
 * The migrate hook Job is deleted once it succeeds (hook-delete-policy hook-succeeded), so its
 * completion is read from the Job controller's `Completed` Events: one per Job object (UID) that
 * completed, `expected` of them by now (one per install or upgrade).
 */
async function checkMigrateCompleted(api, namespace, job, expected, label) {
  const selector = encodeURIComponent(`involvedObject.kind=Job,involvedObject.name=${job}`);
  const events =
    (await api('GET', `/api/v1/namespaces/${namespace}/events?fieldSelector=${selector}`)).body.items ?? [];
  const completed = new Set(events.filter((e) => e.reason === 'Completed').map((e) => e.involvedObject.uid));
  record(
    `migrate hook Job complete ${label}`,
    completed.size >= expected,
    `${completed.size} completed migrate Job(s) in this namespace`,
  );
}

async function main() {
  if (!existsSync(path.join(chart, 'Chart.yaml'))) {
    record('chart', false, `${path.relative(root, chart)}/Chart.yaml is missing`);
    return finish();
  }
  if (!run('go', ['version']).ok) {
    record('go toolchain', false, 'the Go toolchain (`go`) builds the control plane and helm');
    return finish();
  }
  mkdirSync(cacheDir, { recursive: true });
  let bin, helm;
  try {
    const built = buildBinaries();
    bin = built.bin;
    record(
      `control plane binaries (Kubernetes ${PINS.kubernetes.version}, etcd ${PINS.etcd.version}, kwok ${PINS.kwok.version})`,
      true,
      built.seconds === undefined ? 'cached' : `built in ${Math.round(built.seconds)} s`,
    );
    helm = installGoTool(HELM_PIN);
  } catch (error) {
    record('control plane binaries', false, error.message);
    return finish();
  }
  const version = run(path.join(bin, 'kube-apiserver'), ['--version']);
  record(
    'kube-apiserver --version',
    version.stdout.trim() === `Kubernetes ${PINS.kubernetes.version}`,
    version.stdout.trim(),
  );

  const dir = mkdtempSync(path.join(os.tmpdir(), 'cluster-check-'));
  const processes = new Processes(dir);
  try {
    const { api, admin } = await startControlPlaneWithKwok(bin, dir, processes);
    record(
      'control plane up on 127.0.0.1',
      true,
      'etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok',
    );
    await addNode(api);
    record('kwok Node Ready', true);
    const env = {
      dir,
      helm: {
        KUBECONFIG: admin,
        HELM_CACHE_HOME: path.join(dir, 'helm/cache'),
        HELM_CONFIG_HOME: path.join(dir, 'helm/config'),
        HELM_DATA_HOME: path.join(dir, 'helm/data'),
      },
    };
    for (const topology of ['all-in-one', 'microservices']) await checkTopology(helm, env, api, topology);
  } catch (error) {
    record('control plane', false, error.message);
    for (const name of BINARIES) console.log(`    --- ${name} log (last lines)\n${processes.tail(name)}`);
  } finally {
    await processes.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
  finish();
}

await main();
