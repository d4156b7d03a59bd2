// The bus's client really authenticates: real brokers whose client listener wants SASL SCRAM-SHA-512,
// over a plain connection (SASL_PLAINTEXT) and over TLS with a private CA (SASL_SSL, as Strimzi's
// listener). The right password publishes and consumes; a wrong one, or none, is refused; TLS
// without the CA refuses the broker's certificate.
import { randomUUID } from 'node:crypto';
import { startKafka, type KafkaHandle } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaClientConfig } from '../src/kafka-bus.ts';
import { KafkaBus, type BusMessage, type KafkaBusOptions } from '../src/index.ts';
import { waitFor } from './helpers.ts';

const USER = { name: 'checkpoint', password: `pw-${randomUUID()}` };

let plain: KafkaHandle;
let tls: KafkaHandle;

beforeAll(async () => {
  [plain, tls] = await Promise.all([
    startKafka({ secured: { users: [USER] } }),
    startKafka({ secured: { users: [USER], tls: true } }),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), tls?.stop()]);
}, 60_000);

/** Publishes one event and consumes it with a new group: both need the broker to accept the client. */
async function roundTrip(options: Omit<KafkaBusOptions, 'clientId'>): Promise<void> {
  const prefix = `auth-${randomUUID().slice(0, 8)}.`;
  const bus = new KafkaBus({ ...options, clientId: 'auth-test', topicPrefix: prefix });
  const received: BusMessage[] = [];
  try {
    await bus.connect();
    await bus.publish([{ topic: 'things', key: 'k', value: new Uint8Array([7]), headers: {} }]);
    await bus.subscribe({
      groupId: `${prefix}group`,
      topics: ['things'],
      handler: async (message) => {
        received.push(message);
      },
    });
    await waitFor('the event to arrive', async () => received.length > 0, 60_000);
    expect(received[0]).toMatchObject({ topic: 'things', key: 'k', value: new Uint8Array([7]) });
  } finally {
    await bus.stop();
  }
}

/** The error connecting gives (the producer connects first). */
async function connectError(options: Omit<KafkaBusOptions, 'clientId'>): Promise<Error> {
  const bus = new KafkaBus({ ...options, clientId: 'auth-test' });
  try {
    await bus.connect();
  } catch (error) {
    return error as Error;
  } finally {
    await bus.stop();
  }
  throw new Error('connected');
}

describe('KafkaBus against a SASL_PLAINTEXT SCRAM-SHA-512 listener', () => {
  it('when the password is right, then it publishes and consumes', async () => {
    await roundTrip({
      brokers: plain.brokers,
      sasl: { mechanism: 'scram-sha-512', username: USER.name, password: USER.password },
    });
  }, 120_000);

  it('when the password is wrong, then connecting fails with an authentication error', async () => {
    const error = await connectError({
      brokers: plain.brokers,
      sasl: { mechanism: 'scram-sha-512', username: USER.name, password: 'not-the-password' },
    });
    expect(error.name).toBe('KafkaJSSASLAuthenticationError');
    expect(error.message).toMatch(/SASL SCRAM SHA512 authentication failed.*invalid credentials/i);
  }, 60_000);

  it('when the user is unknown, then connecting fails with an authentication error', async () => {
    const error = await connectError({
      brokers: plain.brokers,
      sasl: { mechanism: 'scram-sha-512', username: 'intruder', password: USER.password },
    });
    expect(error.name).toBe('KafkaJSSASLAuthenticationError');
  }, 60_000);

  it('when the client does not authenticate, then it is not served', async () => {
    const error = await connectError({ brokers: plain.brokers });
    expect(error.name).not.toBe('KafkaJSSASLAuthenticationError');
    expect(error.message).toMatch(/connection|closed|timeout|ECONNRESET/i);
  }, 60_000);
});

describe('KafkaBus against a SASL_SSL SCRAM-SHA-512 listener with a private CA', () => {
  it('when the CA and the password are given, then it publishes and consumes', async () => {
    await roundTrip({
      brokers: tls.brokers,
      tls: { ca: tls.caPem! },
      sasl: { mechanism: 'scram-sha-512', username: USER.name, password: USER.password },
    });
  }, 120_000);

  it('when the CA is not given, then the broker certificate is refused', async () => {
    const error = await connectError({
      brokers: tls.brokers,
      tls: true,
      sasl: { mechanism: 'scram-sha-512', username: USER.name, password: USER.password },
    });
    expect(`${error.message} ${String((error as { cause?: unknown }).cause ?? '')}`).toMatch(
      /certificate|self[- ]signed|verify/i,
    );
  }, 60_000);

  it('when the password is wrong, then connecting fails with an authentication error', async () => {
    const error = await connectError({
      brokers: tls.brokers,
      tls: { ca: tls.caPem! },
      sasl: { mechanism: 'scram-sha-512', username: USER.name, password: 'not-the-password' },
    });
    expect(error.name).toBe('KafkaJSSASLAuthenticationError');
  }, 60_000);
});

describe('kafkaClientConfig', () => {
  it('when neither tls nor sasl is given, then the client is plain and anonymous as before', () => {
    const config = kafkaClientConfig({ brokers: 'a:9092, b:9092', clientId: 'x' });
    expect(config.brokers).toEqual(['a:9092', 'b:9092']);
    expect(config).not.toHaveProperty('ssl');
    expect(config).not.toHaveProperty('sasl');
  });

  it('when tls and sasl are given, then KafkaJS gets them as ssl and sasl', () => {
    const config = kafkaClientConfig({
      brokers: ['a:9093'],
      clientId: 'x',
      tls: { ca: 'PEM' },
      sasl: { mechanism: 'scram-sha-256', username: 'u', password: 'p' },
    });
    expect(config.ssl).toEqual({ ca: 'PEM' });
    expect(config.sasl).toEqual({ mechanism: 'scram-sha-256', username: 'u', password: 'p' });
    expect(kafkaClientConfig({ brokers: ['a:9093'], clientId: 'x', tls: true }).ssl).toBe(true);
  });
});
