// Kafka 4.0 removed old versions of many requests (KIP-896). KafkaJS sends each request at the
// highest version both it and the broker implement (min of its newest and the broker's newest) and
// never looks at the broker's oldest: a request whose newest KafkaJS version is below what the
// broker still accepts would be refused. This asks the tests' broker (the Kafka line the deploy
// examples run) for its version ranges and checks every request KafkaJS implements against them.
import { createRequire } from 'node:module';
import { createConnection } from 'node:net';
import { startKafka } from '@checkpoint/testkit';
import { describe, expect, it } from 'vitest';

interface VersionRange {
  min: number;
  max: number;
}

// KafkaJS's request table (name → implemented versions) and api keys; not part of its typed API.
const require = createRequire(import.meta.url);
const { requests } = require('kafkajs/src/protocol/requests/index.js') as {
  requests: Record<string, { versions: string[] }>;
};
const apiKeys = require('kafkajs/src/protocol/requests/apiKeys.js') as Record<string, number>;

/** ApiVersions v0 (still accepted by every broker) over a plain socket: api key → version range. */
function brokerApiVersions(brokers: string): Promise<Map<number, VersionRange>> {
  const [host, port] = brokers.split(',')[0]!.split(':') as [string, string];
  const clientId = Buffer.from('protocol-versions-test');
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length);
  body.writeInt16BE(18, 0); // ApiVersions
  body.writeInt16BE(0, 2); // v0
  body.writeInt32BE(1, 4); // correlation id
  body.writeInt16BE(clientId.length, 8);
  clientId.copy(body, 10);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length);
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port: Number(port) }, () => socket.write(Buffer.concat([size, body])));
    let received = Buffer.alloc(0);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no ApiVersions response')));
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4 || received.length < 4 + received.readInt32BE(0)) return;
      socket.end();
      // size, correlation id, error code, [api key, min, max]
      const errorCode = received.readInt16BE(8);
      if (errorCode !== 0) return reject(new Error(`ApiVersions error ${errorCode}`));
      const count = received.readInt32BE(10);
      const ranges = new Map<number, VersionRange>();
      for (let i = 0, at = 14; i < count; i++, at += 6) {
        ranges.set(received.readInt16BE(at), { min: received.readInt16BE(at + 2), max: received.readInt16BE(at + 4) });
      }
      resolve(ranges);
    });
  });
}

describe('KafkaJS against the Kafka 4 broker (KIP-896)', () => {
  it('when KafkaJS picks the version of each request it implements, then the broker accepts that version', async () => {
    const kafka = await startKafka();
    const broker = await brokerApiVersions(kafka.brokers).finally(() => kafka.stop());
    // The broker is a Kafka 4 one: it no longer takes Fetch v0-v3, OffsetCommit v0-v1 or
    // CreateTopics v0-v1 (KIP-896; Kafka 3.9 still took them all).
    expect(broker.get(apiKeys.Fetch!)?.min).toBeGreaterThanOrEqual(4);
    expect(broker.get(apiKeys.OffsetCommit!)?.min).toBeGreaterThanOrEqual(2);
    expect(broker.get(apiKeys.CreateTopics!)?.min).toBeGreaterThanOrEqual(2);

    const checked: string[] = [];
    const refused: string[] = [];
    for (const [name, definition] of Object.entries(requests)) {
      const range = broker.get(apiKeys[name]!);
      if (definition.versions.length === 0 || !range) continue; // not implemented, or a broker-only request
      const sent = Math.min(Math.max(...definition.versions.map(Number)), range.max);
      checked.push(name);
      if (sent < range.min) refused.push(`${name} v${sent} (broker accepts v${range.min}-v${range.max})`);
    }
    expect(refused).toEqual([]);
    // What the bus sends: produce, consume in a group, commit, and its admin calls.
    expect(checked).toEqual(
      expect.arrayContaining([
        'Produce',
        'Fetch',
        'ListOffsets',
        'Metadata',
        'OffsetCommit',
        'OffsetFetch',
        'GroupCoordinator',
        'JoinGroup',
        'Heartbeat',
        'LeaveGroup',
        'SyncGroup',
        'SaslHandshake',
        'SaslAuthenticate',
        'ApiVersions',
        'CreateTopics',
        'DescribeConfigs',
        'InitProducerId',
      ]),
    );
  }, 240_000);
});
