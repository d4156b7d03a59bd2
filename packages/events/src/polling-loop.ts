// The one loop behind every background job that polls the database: the outbox relay, the mail
// sender, the generation worker's job claims, the privacy retention job, identity's housekeeping
// and analytics' digest. It runs one pass at a time (never two at once), pauses between passes,
// backs off after failures, can be woken early (wake(), or a NOTIFY on a LISTEN channel), and stop()
// waits for the pass in flight. It lives here, in the lowest package, because the relay and
// packages/mail use it; @checkpoint/service-kit re-exports it for the services.
import type pg from 'pg';
import { errorText } from './bus.ts';

/** pino-compatible subset. */
export interface PollingLoopLogger {
  warn(obj: object, msg?: string): void;
}

export interface PollingLoopOptions {
  /** Names the loop in its log lines, e.g. 'outbox relay'. */
  name: string;
  /**
   * One pass. Resolves `true` when more work waits (a full batch): the next pass starts at once.
   * A rejection counts as a failure (see backoffMs and onError).
   */
  pass: () => Promise<boolean | void>;
  /** The pause between passes, in ms. */
  intervalMs: number;
  /**
   * 'after-pass' (default): the pause starts when a pass ends, and the first pass runs at start().
   * 'fixed-rate': passes start every intervalMs counted from start(), the first one interval after
   * it (as setInterval does); a tick that comes while a pass still runs is skipped.
   */
  pace?: 'after-pass' | 'fixed-rate';
  /**
   * The pause after the n-th failed pass in a row (n ≥ 1). It is not cut short by wake() or a
   * NOTIFY: during an outage every insert would wake the loop. Without it a failure is followed
   * by the ordinary pause.
   */
  backoffMs?: (failures: number) => number;
  /** Told of each failed pass, with the number of failures in a row. */
  onError?: (error: unknown, failures: number) => void;
  /**
   * LISTEN on this channel with a connection of the pool, held while the loop runs: a NOTIFY wakes
   * the loop. When LISTEN fails (or its connection is lost) the loop polls, and sets it up again
   * after its next pause.
   */
  listen?: { pool: pg.Pool; channel: string };
  /**
   * stop() waits at most this long for the pass in flight, then leaves it with a warning (its
   * transaction still ends on its own). Default: as long as the pass takes.
   */
  stopTimeoutMs?: number;
  /** More work that stop() waits for beside the pass (e.g. a cleanup a pass started). */
  settle?: () => Promise<unknown> | undefined;
  logger?: PollingLoopLogger;
}

const CHANNEL = /^[a-z_][a-z0-9_]*$/;

export class PollingLoop {
  private active = false;
  private timer: NodeJS.Timeout | undefined;
  /** The pause now waiting may be cut short by wake(). */
  private wakeable = false;
  /** wake() came while a pass ran: the next ordinary pause is skipped. */
  private woken = false;
  private passing: Promise<void> | undefined;
  private listening: Promise<void> | undefined;
  private listener: pg.PoolClient | undefined;
  private startedAt = 0;
  private failuresInRow = 0;
  /** The stop() under way: a second call waits for the same end, and start() waits for it. */
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: PollingLoopOptions) {
    if (options.listen && !CHANNEL.test(options.listen.channel))
      throw new Error(`PollingLoop: not a plain channel name: ${options.listen.channel}`);
  }

  /** The loop runs (between start() and stop()). A pass may check this to end early at stop. */
  get running(): boolean {
    return this.active;
  }

  /** Failed passes in a row so far (0 after a pass that succeeded). */
  get failures(): number {
    return this.failuresInRow;
  }

  /** The pass in flight, if any (resolves when it has ended; never rejects). */
  get current(): Promise<void> | undefined {
    return this.passing;
  }

  /** Starts the loop; with `listen`, resolves once LISTEN is set up (or failed: then it polls). */
  async start(): Promise<void> {
    // A start right after stop() waits for it: else a new pass could run beside the old one.
    if (this.stopping) await this.stopping;
    if (this.active) return;
    this.active = true;
    this.startedAt = Date.now();
    const begin = () => {
      if (!this.active) return;
      if (this.options.pace === 'fixed-rate') this.pause(this.options.intervalMs, true);
      else this.kick(false);
    };
    if (!this.options.listen) return begin();
    // stop() may come before LISTEN is set up: it waits for this, so the LISTEN connection is
    // always released (a stranded one would keep pool.end() waiting forever).
    this.listening = this.listen()
      .catch((error: unknown) =>
        this.options.logger?.warn({ err: errorText(error) }, `${this.options.name}: LISTEN failed, polling only`),
      )
      .finally(() => (this.listening = undefined));
    const listening = this.listening;
    void listening.then(begin);
    await listening;
  }

  /** Look for work now: cuts the ordinary pause short, or runs again right after the pass in flight. */
  wake(): void {
    if (!this.active) return;
    if (this.passing || !this.wakeable) {
      this.woken = true;
      return;
    }
    this.kick(true);
  }

  /** Stops the loop and waits for the pass in flight (bounded by stopTimeoutMs), then unlistens. */
  stop(): Promise<void> {
    // A second stop() (e.g. a signal and a test's teardown) also waits for the pass in flight.
    if (this.stopping) return this.stopping;
    if (!this.active) return Promise.resolve();
    this.active = false;
    this.clearTimer();
    this.stopping = this.finish().finally(() => (this.stopping = undefined));
    return this.stopping;
  }

  private async finish(): Promise<void> {
    const pending = Promise.all([this.listening, this.passing, this.options.settle?.()]);
    const bound = this.options.stopTimeoutMs;
    if (bound === undefined) await pending;
    else {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.options.logger?.warn(
            { timeoutMs: bound },
            `${this.options.name}: batch still running at stop, abandoned`,
          );
          resolve();
        }, bound);
      });
      await Promise.race([pending, timedOut]);
      clearTimeout(timer);
    }
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      // From here on the pool owns the client: a later connection error must not release it again.
      listener.removeAllListeners('error');
      listener.on('error', () => {});
      await listener.query(`unlisten ${this.options.listen!.channel}`).catch(() => {});
      listener.release();
    }
  }

  /** Runs a pass now (after a pause: first sets LISTEN up again if it was lost). */
  private kick(afterPause: boolean): void {
    this.clearTimer();
    this.woken = false;
    this.passing = (async () => {
      let more = false;
      let failed = false;
      try {
        if (afterPause && this.options.listen && !this.listener) {
          await this.listen().catch(() => {});
          // stop() came while LISTEN was being set up again: no pass after it.
          if (!this.active) {
            this.passing = undefined;
            return;
          }
        }
        more = (await this.options.pass()) === true;
        this.failuresInRow = 0;
      } catch (error) {
        failed = true;
        this.failuresInRow++;
        try {
          this.options.onError?.(error, this.failuresInRow);
        } catch {
          // A throwing onError must not end the loop (nor reject the pass stop() waits for).
        }
      }
      this.passing = undefined;
      this.next(more, failed);
    })();
  }

  private next(more: boolean, failed: boolean): void {
    if (!this.active) return;
    if (more) return this.kick(false);
    if (failed && this.options.backoffMs) return this.pause(this.options.backoffMs(this.failuresInRow), false);
    if (this.woken) return this.kick(true);
    const interval = this.options.intervalMs;
    const wait = this.options.pace === 'fixed-rate' ? interval - ((Date.now() - this.startedAt) % interval) : interval;
    this.pause(wait, true);
  }

  private pause(ms: number, wakeable: boolean): void {
    this.clearTimer();
    this.wakeable = wakeable;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.active) this.kick(true);
    }, ms);
    // The loop never keeps a process alive by itself: stop() is how it ends.
    this.timer.unref();
  }

  private clearTimer(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.wakeable = false;
  }

  private async listen(): Promise<void> {
    const { pool, channel } = this.options.listen!;
    const client = await pool.connect();
    // A lost connection can report an error more than once (and while LISTEN is pending): give the
    // client back to the pool only once.
    let released = false;
    const release = (error: Error) => {
      if (released) return;
      released = true;
      client.release(error);
    };
    client.on('notification', () => this.wake());
    client.on('error', (error) => {
      this.options.logger?.warn({ err: errorText(error) }, `${this.options.name}: LISTEN connection lost`);
      if (this.listener === client) this.listener = undefined;
      release(error);
    });
    try {
      await client.query(`listen ${channel}`);
    } catch (error) {
      release(error as Error);
      throw error;
    }
    this.listener = client;
  }
}
