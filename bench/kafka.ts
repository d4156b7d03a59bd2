// The benchmark's Kafka broker (packages/testkit, same local KRaft broker as `make stack`), with
// every event topic and its dead-letter topic created up front, as a provisioned cluster would
// have them. Stack mode then uses it through KAFKA_BROKERS. Why: on a fresh broker the services
// race to create the same topics at start-up and one of them often exits with "This server does
// not host this topic-partition" (packages/events/src/kafka-bus.ts ensureTopics; see
// bench/README.md). Prints `KAFKA_BROKERS=<list>` when ready; stops the broker on SIGTERM/SIGINT.
import { Kafka, logLevel } from 'kafkajs';
import { dlqTopic, eventRegistry } from '@checkpoint/events';
import { startKafka } from '@checkpoint/testkit';

const kafka = await startKafka({ dedicated: true });
const topics = new Set<string>();
for (const type of eventRegistry) if (type.kind === 'message') topics.add(type.file.proto.package);
const admin = new Kafka({ clientId: 'bench', brokers: kafka.brokers.split(','), logLevel: logLevel.NOTHING }).admin();
await admin.connect();
await admin.createTopics({
  waitForLeaders: true,
  topics: [...topics]
    .flatMap((t) => [t, dlqTopic(t)])
    .map((topic) => ({ topic, numPartitions: 3, replicationFactor: 1 })),
});
const listed = new Set(await admin.listTopics());
await admin.disconnect();
const missing = [...topics].filter((t) => !listed.has(t));
if (missing.length) throw new Error(`topics not created: ${missing.join(', ')}`);
console.log(`bench kafka: topics ${[...topics].join(', ')} (+ .dlq)`);
console.log(`KAFKA_BROKERS=${kafka.brokers}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await kafka.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000); // stay up until stopped
