// What is not JavaScript cannot import services.js: the chart (Helm reads no file outside it), the
// Containerfile and the deploy/ examples. Each names the services; these tests fail when one of
// them does not name exactly the services of the list (docs/adding-a-service.md says what to change).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { databaseRole, privacyServices, SERVICE_NAMES, services } from '../src/index.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const yaml = (file: string) => YAML.parseAllDocuments(read(file)).map((d) => d.toJS());
const names = [...SERVICE_NAMES];
const keysBut = (o: object, ...but: string[]) => Object.keys(o).filter((k) => !but.includes(k));

/** The words of a `{{- define "<name>" -}} … {{- end }}` block of _helpers.tpl. */
function defined(tpl: string, name: string): string {
  const at = tpl.indexOf(`{{- define "${name}" -}}`);
  expect(at, name).toBeGreaterThanOrEqual(0);
  return tpl.slice(at, tpl.indexOf('{{- end }}', at));
}

describe('the chart', () => {
  const helpers = read('charts/checkpoint/templates/_helpers.tpl');
  const values = yaml('charts/checkpoint/values.yaml')[0];
  const schema = JSON.parse(read('charts/checkpoint/values.schema.json'));

  it('when the chart lists the services, then it lists those of services.js in its order', () => {
    expect(defined(helpers, 'checkpoint.serviceNames').trim().split('\n').at(-1)!.split(' ')).toEqual(names);
    const microservices = defined(helpers, 'checkpoint.components').split('{{- else -}}')[1]!;
    expect(microservices.trim().split(' ')).toEqual([...names.map((n) => `${n}:${n}`), 'gateway:gateway']);
  });

  it('when values.yaml and its schema name the services, then they name those of services.js', () => {
    expect(keysBut(values.postgres.secretKeys, 'admin')).toEqual(names);
    expect(keysBut(values.postgres.urls, 'admin')).toEqual(names);
    expect(keysBut(values.components, 'defaults', 'gateway', 'allInOne')).toEqual(names);
    const props = schema.properties;
    expect(keysBut(props.postgres.properties.secretKeys.properties, 'admin')).toEqual(names);
    expect(keysBut(props.postgres.properties.urls.properties, 'admin')).toEqual(names);
    expect(keysBut(props.components.properties, 'defaults', 'gateway', 'allInOne')).toEqual(names);
  });
});

describe('the Containerfile', () => {
  const containerfile = read('Containerfile');

  it("when the image installs the workspaces, then it copies every service's and package's package.json", () => {
    const copied = [...containerfile.matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map((m) => m[1]);
    const packages = readdirSync(path.join(root, 'packages')).map((p) => `packages/${p}`);
    for (const dir of [...packages, ...names.map((n) => `services/${n}`)]) expect(copied).toContain(dir);
  });

  it('when its header names the processes, then every service is one of them', () => {
    const header = /^# \((.+)\)\.$/m.exec(containerfile)![1]!.split(' | ');
    expect(header.filter((p) => !['gateway', 'all-in-one', 'migrate'].includes(p))).toEqual(names);
  });
});

describe('the deploy/ examples', () => {
  it('when CloudNativePG makes the database, then each service has its role and owns its schema', () => {
    const cluster = yaml('deploy/cloudnative-pg/cluster.yaml').find((d) => d?.kind === 'Cluster');
    const roles = cluster.spec.managed.roles.map((r: { name: string }) => r.name);
    expect(roles).toEqual(names.map(databaseRole));
    const database = yaml('deploy/cloudnative-pg/database.yaml')[0];
    expect(database.spec.schemas).toEqual(names.map((n) => ({ name: n, owner: databaseRole(n) })));
  });

  it('when the secrets scripts and the local Postgres loop over the services, then over those of services.js', () => {
    for (const file of ['deploy/cloudnative-pg/secrets.sh', 'deploy/local/secrets.sh', 'deploy/local/postgres.yaml']) {
      const loop = /for service in ([a-z0-9 ]+); do/.exec(read(file));
      expect(loop?.[1]?.split(' '), file).toEqual(names);
    }
    const passwords = [...read('deploy/local/postgres.yaml').matchAll(/key: ([a-z0-9]+)-password,/g)].map((m) => m[1]);
    expect(passwords).toEqual(names);
  });

  it('when Kafka admits the services, then every service is admitted and each privacy group may read', () => {
    const kafka = read('deploy/strimzi/kafka.yaml');
    expect(/values: \[([a-z0-9, ]+)\]/.exec(kafka)?.[1]?.split(', ')).toEqual(names);
    const user = yaml('deploy/strimzi/user.yaml')[0];
    type Acl = { resource: { type: string; name: string; patternType: string } };
    const groups = (user.spec.authorization.acls as Acl[]).filter((a) => a.resource.type === 'group');
    const readable = (group: string) =>
      groups.some(({ resource: r }) => (r.patternType === 'prefix' ? group.startsWith(r.name) : group === r.name));
    for (const name of privacyServices(services)) expect(readable(`${name}-privacy`), name).toBe(true);
  });
});
