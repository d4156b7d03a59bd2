// The KafkaUser of deploy/strimzi/user.yaml allows what the services do: a broker enforcing ACLs
// (as Strimzi's `authorization: simple`) gets that file's ACLs for a SCRAM user, whose bus then
// creates its topics, publishes, consumes in a service's group and reads its backlog and retention
// settings; a group or a topic outside them is refused.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startKafka, type KafkaHandle } from '@checkpoint/testkit';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KafkaBus, type BusMessage } from '../src/index.ts';
import { waitFor } from './helpers.ts';

interface StrimziAcl {
  resource: { type: 'topic' | 'group' | 'cluster'; name?: string; patternType?: 'literal' | 'prefix' };
  operations: string[];
}

const userFile = new URL('../../../deploy/strimzi/user.yaml', import.meta.url);
const kafkaUser = parse(readFileSync(userFile, 'utf8')) as {
  metadata: { name: string };
  spec: { authorization: { acls: StrimziAcl[] } };
};
const USER = { name: kafkaUser.metadata.name, password: `pw-${randomUUID()}` };
const ADMIN = { name: 'admin', password: `pw-${randomUUID()}` };

// KafkaJS' enums as numbers (its ESM exports do not include them; see kafka-bus.ts).
const RESOURCE = { topic: 2, group: 3, cluster: 4 } as const;
const PATTERN = { literal: 3, prefix: 4 } as const;
const OPERATION: Record<string, number> = {
  All: 2,
  Read: 3,
  Write: 4,
  Create: 5,
  Delete: 6,
  Alter: 7,
  Describe: 8,
  ClusterAction: 9,
  DescribeConfigs: 10,
  AlterConfigs: 11,
  IdempotentWrite: 12,
};
const ALLOW = 3;

let kafka: KafkaHandle;

beforeAll(async () => {
  kafka = await startKafka({ secured: { users: [USER, ADMIN], superUsers: [ADMIN.name] } });
  const admin = new Kafka({
    clientId: 'acl-setup',
    brokers: [kafka.brokers],
    sasl: { mechanism: 'scram-sha-512', username: ADMIN.name, password: ADMIN.password },
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    await admin.createAcls({
      acl: kafkaUser.spec.authorization.acls.flatMap((acl) =>
        acl.operations.map((operation) => ({
          resourceType: RESOURCE[acl.resource.type],
          resourceName: acl.resource.type === 'cluster' ? 'kafka-cluster' : acl.resource.name!,
          resourcePatternType: PATTERN[acl.resource.patternType ?? 'literal'],
          principal: `User:${USER.name}`,
          host: '*',
          operation: OPERATION[operation]!,
          permissionType: ALLOW,
        })),
      ) as never,
    });
  } finally {
    await admin.disconnect();
  }
}, 240_000);

afterAll(async () => {
  await kafka?.stop();
}, 60_000);

const busOf = (topicPrefix: string) =>
  new KafkaBus({
    brokers: kafka.brokers,
    clientId: 'acl-test',
    topicPrefix,
    sasl: { mechanism: 'scram-sha-512', username: USER.name, password: USER.password },
  });

/** Publishes one event to a fresh topic of the product's prefix, then subscribes `groupId` to it: what arrives. */
async function publishThenSubscribe(
  bus: KafkaBus,
  groupId: string,
): Promise<{ topic: string; received: BusMessage[] }> {
  // `checkpoint.<service>.v1`, fresh for this run.
  const topic = `acl${randomUUID().slice(0, 8)}.v1`;
  const received: BusMessage[] = [];
  await bus.publish([{ topic, key: 'k', value: new Uint8Array([1]), headers: {} }]);
  await bus.subscribe({
    groupId,
    topics: [topic],
    handler: async (message) => {
      received.push(message);
    },
  });
  return { topic, received };
}

describe("deploy/strimzi/user.yaml's ACLs", () => {
  it('when a service uses its topics and its group, then everything it does is allowed', async () => {
    const bus = busOf('checkpoint.');
    try {
      const { topic, received } = await publishThenSubscribe(bus, 'class-privacy');
      await waitFor('the event to arrive', async () => received.length > 0, 60_000);
      // The metrics' backlog (offsets of the group and the topics) and the inbox's retention (topic configs).
      const backlog = await bus.eventBacklog(10_000);
      expect(backlog.lag.some((entry) => entry.groupId === 'class-privacy')).toBe(true);
      expect(await bus.redeliveryWindowMs([topic])).toBeGreaterThan(0);
    } finally {
      await bus.stop();
    }
  }, 120_000);

  it('when a consumer group is not one of the services, then it never joins and gets no event', async () => {
    const bus = busOf('checkpoint.');
    try {
      // KafkaJS joins the group after subscribe() returns: the refusal crashes the consumer then.
      const { received } = await publishThenSubscribe(bus, 'intruder');
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      expect(received).toEqual([]);
      expect(bus.isReady()).toBe(false);
    } finally {
      await bus.stop();
    }
  }, 60_000);

  it('when a topic is outside the product prefix, then publishing to it is refused', async () => {
    const bus = busOf('other.');
    try {
      await expect(
        bus.publish([{ topic: 'things', key: 'k', value: new Uint8Array([1]), headers: {} }]),
      ).rejects.toThrow(/Topic creation errors|not authorized/i);
    } finally {
      await bus.stop();
    }
  }, 60_000);
});
