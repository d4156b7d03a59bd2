import { describe, expect, it } from 'vitest';
import { KafkaBus } from '../src/kafka-bus.ts';

/** A broker whose metadata has not caught up with a topic just created: kafkajs's answer then. */
const notHostedYet = () =>
  Object.assign(new Error('This server does not host this topic-partition'), {
    type: 'UNKNOWN_TOPIC_OR_PARTITION',
    retriable: true,
  });

/**
 * The admin calls ensureTopics makes, as kafkajs answers them on a loaded KRaft broker: the
 * topic is created, but the first metadata asks about it are refused as not hosted. kafkajs's own
 * leader wait (createTopics with waitForLeaders) gives up on that error instead of waiting.
 */
function laggingAdmin(refusals: number) {
  const calls: string[] = [];
  let left = refusals;
  const metadata = () => {
    if (left-- > 0) throw notHostedYet();
    return { topics: [{ name: 't', partitions: [{ partitionId: 0, leader: 1 }] }] };
  };
  return {
    calls,
    admin: {
      connect: async () => {},
      listTopics: async () => [],
      createTopics: async ({ waitForLeaders }: { waitForLeaders?: boolean }) => {
        calls.push(`create waitForLeaders=${String(waitForLeaders)}`);
        if (waitForLeaders) metadata();
        return true;
      },
      fetchTopicMetadata: async () => {
        calls.push('metadata');
        return metadata();
      },
    },
  };
}

describe('KafkaBus topics', () => {
  it('when a new topic is not known to the broker for a moment, then the bus waits for its leader instead of failing', async () => {
    const bus = new KafkaBus({ brokers: '127.0.0.1:1', clientId: 'topics-test' });
    const { admin, calls } = laggingAdmin(2);
    Object.assign(bus, { admin });
    const ensure = (bus as unknown as { ensureTopics: (topics: string[]) => Promise<void> }).ensureTopics.bind(bus);

    await expect(ensure(['t'])).resolves.toBeUndefined();
    expect(calls).toEqual(['create waitForLeaders=false', 'metadata', 'metadata', 'metadata']);
  });
});
