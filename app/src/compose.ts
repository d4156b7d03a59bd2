// The composition root: the only code that imports several services. Starts every service in
// this one process (each with its own schema and database role) on loopback ports, one in-process
// bus, and the gateway in front. Used by `npm start` (all-in-one.ts) and by the API contract tests.
import { randomBytes } from 'node:crypto';
import { InProcessBus, type Bus, type BusMessage, type SubscribeOptions } from '@checkpoint/events';
import { createGateway, gatewayConfigSchemaFor, stopGateway } from '@checkpoint/gateway';
import {
  closeServer,
  SHUTDOWN_GRACE_MS,
  countDeadLetter,
  listen,
  parseConfig,
  provisionServiceDatabase,
  type Logger,
  type RunningService,
  type ServiceDefinition,
  startService,
} from '@checkpoint/service-kit';
import { services as registry, urlVariable, type Registry } from '@checkpoint/service-registry';

import { startLocalMailbox, withMailboxPage, type LocalMailbox } from './local-mailbox.ts';
import { definitionsFor, serviceDefinitions } from './service-definitions.ts';

/** Every service of packages/service-registry/services.js, in its (start) order. */
export const services = serviceDefinitions;

export interface AllInOneOptions {
  /** Superuser URL of the Postgres database to use. */
  postgresUrl: string;
  port: number;
  host: string;
  logger: Logger;
  /** Extra environment for the services and the gateway (DEMO_SEED, PUBLIC_URL, rate limits…). */
  env?: Record<string, string | undefined>;
  /**
   * Without SMTP_URL a local SMTP server on 127.0.0.1 takes the services' mail; with this set it
   * is kept there (DATA_DIR/mailbox) and shown at /_mailbox?key=… (AllInOne.mailbox).
   */
  mailboxDir?: string;
  /**
   * Another list of services than packages/service-registry/services.js, with their definitions
   * (a throwaway service's test, docs/adding-a-service.md); the gateway routes by it.
   */
  registry?: { services: Registry; definitions: Record<string, ServiceDefinition> };
}

export interface AllInOne {
  url: string;
  services: RunningService[];
  /** The local SMTP server started because SMTP_URL was unset (see local-mailbox.ts). */
  mailbox?: LocalMailbox;
  stop(): Promise<void>;
}

export async function startAllInOne(options: AllInOneOptions): Promise<AllInOne> {
  const bus = new GatedBus(
    new InProcessBus({
      logger: options.logger,
      // The bus knows the consumer group, not the service: the group (class, identity-privacy…) is the label.
      onDeadLetter: (d) => countDeadLetter(d.groupId, d.groupId, d.message.topic),
    }),
  );
  const running: RunningService[] = [];
  const baseEnv = { ...process.env, ...options.env };
  // The secret of the service tokens (gateway → services): random for each run unless given.
  baseEnv.SERVICE_TOKEN_SECRET ??= randomBytes(32).toString('base64url');
  // The key sealing secrets at rest (SSO client secrets): all-in-one.ts passes the one kept in
  // DATA_DIR; otherwise (tests) random for each run.
  baseEnv.SECRETS_KEY ||= randomBytes(32).toString('base64');
  // No SMTP server configured: mail goes to a local one (kept, and shown to the operator).
  const mailbox = baseEnv.SMTP_URL ? undefined : await startLocalMailbox(options.mailboxDir);
  if (mailbox) baseEnv.SMTP_URL = mailbox.smtpUrl;
  try {
    const list = options.registry?.services ?? registry;
    const definitions = options.registry ? definitionsFor(list, options.registry.definitions) : services;
    for (const def of definitions) {
      const env = {
        ...baseEnv,
        // The services started before this one (integrations calls identity's and class's internal routes).
        ...Object.fromEntries(running.map((s) => [urlVariable(s.name), s.url])),
        DATABASE_URL: await provisionServiceDatabase(options.postgresUrl, def.name),
        PORT: '0',
        HOST: '127.0.0.1',
      };
      running.push(await startService(def, { env, bus, logger: options.logger.child({ service: def.name }) }));
    }
    const gatewayConfig = parseConfig(gatewayConfigSchemaFor(list), {
      ...baseEnv,
      PORT: String(options.port),
      HOST: options.host,
      ...Object.fromEntries(running.map((s) => [urlVariable(s.name), s.url])),
    });
    // Every consumer group is subscribed now: what the services wrote while starting (the demo
    // accounts' UserRegistered, outbox rows left by the last run) reaches them.
    bus.open();
    // The services' /api calls are handed to their apps in this process (gateway/src/handoff.ts):
    // no loopback connection per call. Their URLs serve the gateway's own calls (JWKS, refresh).
    const gateway = createGateway(gatewayConfig, options.logger.child({ service: 'gateway' }), {
      inProcess: Object.fromEntries(running.map((s) => [s.name, s.app])),
      ready: async () => (await Promise.all(running.map((s) => s.ready()))).every(Boolean),
      registry: list,
    });
    const { server, url } = await listen(
      mailbox ? withMailboxPage(gateway, mailbox) : gateway,
      options.port,
      options.host,
    );
    return {
      url,
      services: running,
      ...(mailbox ? { mailbox } : {}),
      stop: async () => {
        stopGateway(gateway);
        await closeServer(server, 5_000, { graceMs: SHUTDOWN_GRACE_MS });
        await bus.stop();
        for (const s of [...running].reverse()) await s.stop();
        await mailbox?.stop();
      },
    };
  } catch (err) {
    await bus.stop().catch(() => {});
    for (const s of running) await s.stop().catch(() => {});
    await mailbox?.stop().catch(() => {});
    throw err;
  }
}

/**
 * The in-process bus delivers only to the groups subscribed at the moment of publishing (Kafka
 * keeps the messages for a new group). Services start one after another and their relays publish
 * as soon as they start, so publications wait here until every service has subscribed.
 */
class GatedBus implements Bus {
  private release!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly inner: InProcessBus) {}

  open(): void {
    this.release();
  }

  async publish(messages: BusMessage[]): Promise<void> {
    await this.opened;
    return this.inner.publish(messages);
  }

  subscribe(options: SubscribeOptions): Promise<void> {
    return this.inner.subscribe(options);
  }

  isReady(): boolean {
    return this.inner.isReady();
  }

  async stop(): Promise<void> {
    // A relay waiting here gets the stopped bus's refusal and keeps its rows for the next run.
    this.release();
    await this.inner.stop();
  }
}
