// INBOX_RETENTION_DAYS never undercuts how long Kafka may deliver an event again: an inbox entry
// deleted sooner would let a redelivered event take effect twice.
import { InProcessBus, KafkaBus } from '@checkpoint/events';
import { describe, expect, it, vi } from 'vitest';
import { inboxRetention } from '../src/service.ts';

const DAY = 86_400_000;
const logger = () => ({ warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() }) as never;

function kafkaBus(windowMs: number) {
  const bus = new KafkaBus({ brokers: '127.0.0.1:1', clientId: 'inbox-retention-test' });
  const window = vi.spyOn(bus, 'redeliveryWindowMs').mockResolvedValue(windowMs);
  return { bus, window };
}

describe('inbox retention', () => {
  it('when the topics keep events for less than the retention, then the retention applies', async () => {
    const { bus, window } = kafkaBus(14 * DAY);
    await expect(inboxRetention(bus, ['a.v1', 'b.v1', 'a.v1'], 30 * DAY, logger())()).resolves.toBe(30 * DAY);
    expect(window).toHaveBeenCalledWith(['a.v1', 'b.v1']);
  });

  it('when a topic keeps events as long or longer, then entries are kept that long and a day; for ever when the topic is', async () => {
    const log = logger() as unknown as { warn: ReturnType<typeof vi.fn> };
    for (const [windowMs, kept] of [
      [30 * DAY, 31 * DAY],
      [90 * DAY, 91 * DAY],
      [Infinity, 0],
    ] as const) {
      const retention = inboxRetention(kafkaBus(windowMs).bus, ['a.v1'], 30 * DAY, log as never);
      await expect(retention()).resolves.toBe(kept);
      await expect(retention()).resolves.toBe(kept);
    }
    // Once per change of answer.
    expect(log.warn).toHaveBeenCalledTimes(3);
  });

  it('when the retention is 0 or the bus is in-process, then Kafka is not asked and the setting applies', async () => {
    const { bus, window } = kafkaBus(Infinity);
    await expect(inboxRetention(bus, ['a.v1'], 0, logger())()).resolves.toBe(0);
    expect(window).not.toHaveBeenCalled();
    await expect(inboxRetention(new InProcessBus(), ['a.v1'], 30 * DAY, logger())()).resolves.toBe(30 * DAY);
  });
});
