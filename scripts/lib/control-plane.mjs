// The Kubernetes control plane the cluster checks run (scripts/cluster-check.mjs with kwok,
// scripts/kubelet-check.mjs with a real kubelet): etcd and the k8s.io/kubernetes commands built from
// the Go module proxy at one pinned release, started on 127.0.0.1 (free ports, a temporary
// directory, certificates and static tokens made per run).
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import path from 'node:path';
import { goModule, must, run } from './checks.mjs';

export const KUBERNETES_PINS = {
  // The release chart-check validates the chart against; its staging modules are k8s.io/* v0.34.4.
  kubernetes: { module: 'k8s.io/kubernetes', version: 'v1.34.4', staging: 'v0.34.4' },
  // The etcd server k8s.io/kubernetes v1.34.4 itself requires.
  etcd: { module: 'go.etcd.io/etcd/server/v3', version: 'v3.6.4' },
};

/**
 * k8s.io/kubernetes replaces each of its staging modules by a directory of its own repository
 * (`k8s.io/api => ./staging/src/k8s.io/api`), which only its own build can use: the build module
 * here requires it and replaces each staging module by the release of it that goes with it.
 * `commands`: the k8s.io/kubernetes/cmd/… to build beside etcd.
 */
export function buildModule(dir, commands) {
  const kube = goModule(KUBERNETES_PINS.kubernetes.module, KUBERNETES_PINS.kubernetes.version, dir);
  const staging = [...readFileSync(kube.GoMod, 'utf8').matchAll(/^\s*(k8s\.io\/[\w.-]+)\s+=>\s+\.\/staging\//gm)].map(
    (m) => m[1],
  );
  if (staging.length === 0) throw new Error(`no staging replace directives in ${kube.GoMod}`);
  const gitVersion = KUBERNETES_PINS.kubernetes.version;
  const [major, minor] = gitVersion.slice(1).split('.');
  writeFileSync(
    path.join(dir, 'go.mod'),
    [
      'module checkpoint.local/cluster-binaries',
      '',
      'go 1.24.0',
      '',
      ...[KUBERNETES_PINS.kubernetes, KUBERNETES_PINS.etcd].map((pin) => `require ${pin.module} ${pin.version}`),
      '',
      ...staging.map((module) => `replace ${module} => ${module} ${KUBERNETES_PINS.kubernetes.staging}`),
      '',
    ].join('\n'),
  );
  // etcd's own main package is in another module (go.etcd.io/etcd/v3); its body is this one call.
  mkdirSync(path.join(dir, 'etcd'), { recursive: true });
  writeFileSync(
    path.join(dir, 'etcd/main.go'),
    'package main\n\nimport (\n\t"os"\n\n\t"go.etcd.io/etcd/server/v3/etcdmain"\n)\n\nfunc main() { etcdmain.Main(os.Args) }\n',
  );
  const packages = [...commands.map((c) => `k8s.io/kubernetes/cmd/${c}`), './etcd'];
  writeFileSync(
    path.join(dir, 'tools.go'),
    `//go:build tools\n\npackage tools\n\nimport (\n${packages
      .filter((p) => !p.startsWith('.'))
      .map((p) => `\t_ "${p}"\n`)
      .join('')})\n`,
  );
  const version = (pkg, value) => `-X ${pkg}.${value}`;
  const ldflags = [
    '-s',
    '-w',
    ...['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version'].flatMap((pkg) => [
      version(pkg, `gitVersion=${gitVersion}`),
      version(pkg, `gitMajor=${major}`),
      version(pkg, `gitMinor=${minor}`),
      version(pkg, 'gitTreeState=clean'),
    ]),
  ].join(' ');
  return { packages, ldflags };
}

/** `go mod tidy` and one `go build` of etcd and `commands` into `<dir>/bin/`, niced (the other tests keep their CPU). */
export function buildKubernetes(dir, commands) {
  const bin = path.join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const { packages, ldflags } = buildModule(dir, commands);
  const env = { GOFLAGS: '-mod=mod' };
  must(run('nice', ['-n', '19', 'go', 'mod', 'tidy'], { cwd: dir, env }), 'go mod tidy');
  must(
    run('nice', ['-n', '19', 'go', 'build', '-trimpath', `-ldflags=${ldflags}`, '-o', `${bin}/`, ...packages], {
      cwd: dir,
      env,
    }),
    'go build',
  );
  return bin;
}

// --- control plane ---------------------------------------------------------------------------

/** A port the kernel hands out on 127.0.0.1, free when asked (the components bind it soon after). */
export function freePort() {
  const server = createServer().unref();
  return new Promise((resolve, reject) =>
    server.once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    }),
  );
}

/** A CA, the API server's serving certificate (127.0.0.1, localhost) and the service-account key pair. */
function certificates(dir) {
  const ssl = (command) => must(run('openssl', command.split(' '), { cwd: dir }), `openssl ${command}`);
  const key = '-newkey rsa:2048 -nodes';
  ssl(`req -x509 ${key} -days 1 -subj /CN=cluster-check-ca -keyout ca.key -out ca.crt`);
  ssl(`req ${key} -subj /CN=kube-apiserver -keyout server.key -out server.csr`);
  writeFileSync(
    path.join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\n',
  );
  ssl('x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -extfile server.ext -out server.crt');
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(path.join(dir, 'sa.key'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(path.join(dir, 'sa.pub'), publicKey.export({ type: 'spki', format: 'pem' }));
}

/**
 * Static bearer tokens (made per run): the admin (system:masters), each component as its own user,
 * and `extraUsers` ({ name: [user, group] }).
 */
function tokens(dir, extraUsers = {}) {
  const users = {
    admin: ['admin', 'system:masters'],
    controllerManager: ['system:kube-controller-manager', ''],
    scheduler: ['system:kube-scheduler', ''],
    ...extraUsers,
  };
  const out = {};
  const lines = Object.entries(users).map(([name, [user, group]]) => {
    out[name] = randomBytes(24).toString('hex');
    return `${out[name]},${user},${user}${group ? `,"${group}"` : ''}`;
  });
  writeFileSync(path.join(dir, 'tokens.csv'), `${lines.join('\n')}\n`);
  return out;
}

export function kubeconfig(dir, name, server, token) {
  const file = path.join(dir, `${name}.kubeconfig`);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'check', cluster: { server, 'certificate-authority': path.join(dir, 'ca.crt') } }],
      users: [{ name, user: { token } }],
      contexts: [{ name: 'check', context: { cluster: 'check', user: name } }],
      'current-context': 'check',
    }),
  );
  return file;
}

/** The Kubernetes API as the admin: JSON in and out (a PATCH is a merge patch), { status, body }. */
export function apiClient(server, ca, token) {
  return (method, urlPath, body) =>
    new Promise((resolve) => {
      const req = https.request(
        `${server}${urlPath}`,
        {
          method,
          ca,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body
              ? { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' }
              : {}),
          },
          timeout: 30_000,
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => {
            let parsed = text;
            try {
              parsed = JSON.parse(text);
            } catch {
              /* not JSON: kept as text */
            }
            resolve({ status: res.statusCode, body: parsed });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', (error) => resolve({ status: 0, body: error.message }));
      req.end(body ? JSON.stringify(body) : undefined);
    });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(what, test, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test()) return;
    await sleep(500);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** The processes of the control plane; each logs to its own file in the temporary directory. */
export class Processes {
  constructor(dir) {
    this.dir = dir;
    this.children = [];
  }

  start(name, binary, args) {
    const log = openSync(path.join(this.dir, `${name}.log`), 'a');
    const child = spawn(binary, args, { cwd: this.dir, stdio: ['ignore', log, log] });
    closeSync(log);
    child.exitedWith = undefined;
    child.on('exit', (code, signal) => (child.exitedWith = code ?? signal));
    this.children.push({ name, child });
    return child;
  }

  /** The last lines of a component's log (shown when a check fails). */
  tail(name, lines = 15) {
    try {
      return readFileSync(path.join(this.dir, `${name}.log`), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(-lines)
        .join('\n');
    } catch {
      return '';
    }
  }

  /** SIGTERM in reverse order of start, SIGKILL after 10 s: bounded. */
  async stopAll() {
    for (const { child } of [...this.children].reverse()) {
      if (child.exitedWith !== undefined) continue;
      child.kill('SIGTERM');
      const deadline = Date.now() + 10_000;
      while (child.exitedWith === undefined && Date.now() < deadline) await sleep(100);
      if (child.exitedWith === undefined) child.kill('SIGKILL');
    }
  }
}

/**
 * etcd, kube-apiserver, kube-controller-manager and kube-scheduler from `bin`, on 127.0.0.1 and free
 * ports, their files in `dir`; `extraUsers` get tokens too. { api, admin kubeconfig, server, token }.
 */
export async function startControlPlane(bin, dir, processes, extraUsers = {}) {
  const binary = (name) => path.join(bin, name);
  certificates(dir);
  const token = tokens(dir, extraUsers);
  const [etcdPort, peerPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const etcd = `http://127.0.0.1:${etcdPort}`;
  processes.start('etcd', binary('etcd'), [
    '--name=check',
    `--data-dir=${path.join(dir, 'etcd')}`,
    `--listen-client-urls=${etcd}`,
    `--advertise-client-urls=${etcd}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=check=http://127.0.0.1:${peerPort}`,
    '--unsafe-no-fsync',
  ]);
  const file = (name) => path.join(dir, name);
  processes.start('kube-apiserver', binary('kube-apiserver'), [
    `--etcd-servers=${etcd}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${apiPort}`,
    `--tls-cert-file=${file('server.crt')}`,
    `--tls-private-key-file=${file('server.key')}`,
    `--client-ca-file=${file('ca.crt')}`,
    `--token-auth-file=${file('tokens.csv')}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    `--service-account-key-file=${file('sa.pub')}`,
    `--service-account-signing-key-file=${file('sa.key')}`,
    // Addresses handed to Services only; nothing routes or dials them here.
    '--service-cluster-ip-range=10.96.0.0/16',
    '--authorization-mode=Node,RBAC',
    '--allow-privileged=false',
    // The `kubernetes` Service's endpoint would be 127.0.0.1, which Endpoints refuse.
    '--endpoint-reconciler-type=none',
  ]);
  const server = `https://127.0.0.1:${apiPort}`;
  const api = apiClient(server, readFileSync(file('ca.crt')), token.admin);
  await waitFor(
    'the API server ready',
    async () => {
      if (processes.children.some(({ child }) => child.exitedWith !== undefined)) {
        throw new Error(`a component exited:\n${processes.tail('kube-apiserver')}\n${processes.tail('etcd')}`);
      }
      return (await api('GET', '/readyz')).status === 200;
    },
    120_000,
  );
  const admin = kubeconfig(dir, 'admin', server, token.admin);
  processes.start('kube-controller-manager', binary('kube-controller-manager'), [
    `--kubeconfig=${kubeconfig(dir, 'controller-manager', server, token.controllerManager)}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    '--leader-elect=false',
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${file('sa.key')}`,
    `--root-ca-file=${file('ca.crt')}`,
  ]);
  processes.start('kube-scheduler', binary('kube-scheduler'), [
    `--kubeconfig=${kubeconfig(dir, 'scheduler', server, token.scheduler)}`,
    '--bind-address=127.0.0.1',
    '--secure-port=0',
    '--leader-elect=false',
  ]);
  return { api, admin, server, token };
}
