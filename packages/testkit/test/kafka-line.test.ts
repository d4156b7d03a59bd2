// The tests' broker, the local deploy's image and the Strimzi example run the same Kafka release,
// so the documented install is the combination the tests cover.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

const file = (path: string) => readFile(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('the Kafka release of the tests and of the deploy examples', () => {
  it('when the pom, deploy/local and deploy/strimzi are read, then they name the same Kafka 4 release', async () => {
    const pom = await file('packages/testkit/kafka/pom.xml');
    const tested = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(pom)?.[1];

    const local = /image:\s*docker\.io\/apache\/kafka:(\S+)/.exec(await file('deploy/local/kafka.yaml'))?.[1];

    const strimziDocs = parseAllDocuments(await file('deploy/strimzi/kafka.yaml')).map((d) => d.toJS());
    const strimzi = strimziDocs.find((d) => d?.kind === 'Kafka')?.spec?.kafka?.version;

    expect(tested).toMatch(/^4\.\d+\.\d+$/);
    expect({ local, strimzi }).toEqual({ local: tested, strimzi: tested });
  });
});
