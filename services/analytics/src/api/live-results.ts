// The live class view: GET /api/dashboard/live?classId=… is a server-sent event stream that says
// `result` whenever a result of the class (or of any of the classes, `classId=a,b`: an assessment
// given to several classes) is stored or changes, and `progress` whenever a
// student's count of answered questions moves (no student, answer or score in it). The consumers send the notice with
// pg_notify in their transaction, so it goes out at commit and reaches every analytics process
// (whichever one consumed the event); each process keeps one LISTEN connection for all its streams.
// A stream ends after `maxAgeMs`: EventSource reconnects through the gateway, which checks the
// session again, so a signed-out teacher's stream does not outlive the session by long.
import type { Request, Response } from 'express';
import type pg from 'pg';
import { ServiceUnavailableError, TooManyRequestsError, type Logger } from '@checkpoint/service-kit';
import { LIVE_CHANNEL } from '../data-access/read-model.writer.ts';

export interface LiveNotice {
  classId: string;
  assessmentId: string;
  resultId?: string;
  /** 'progress': a student's count of answered questions moved (absent: a result changed). */
  kind?: 'progress';
}

export interface LiveResultsOptions {
  heartbeatMs: number;
  maxStreams: number;
  /** Streams one user may hold open in this process (a few tabs); more answer 429. */
  maxStreamsPerUser: number;
  maxAgeMs: number;
  logger: Logger;
}

const RECONNECT_MAX_MS = 30_000;

export class LiveResults {
  /** The open streams of each class (a stream of several classes is in each of their sets). */
  private readonly streams = new Map<string, Set<Response>>();
  /** Every open stream once. */
  private readonly all = new Set<Response>();
  private readonly perUser = new Map<string, number>();
  private open = 0;
  private running = false;
  private draining = false;
  private client: pg.PoolClient | undefined;
  private connecting: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: LiveResultsOptions,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    this.heartbeat = setInterval(() => this.broadcast(': ping\n\n'), this.options.heartbeatMs);
    this.heartbeat.unref();
    await this.connect(0);
  }

  /** Sets up LISTEN; on failure (or a later loss) tries again with backoff while running. */
  private connect(attempt: number): Promise<void> {
    const connecting = (async () => {
      let client: pg.PoolClient | undefined;
      try {
        client = await this.pool.connect();
        client.on('notification', this.onNotification);
        client.on('error', this.onError);
        await client.query(`listen ${LIVE_CHANNEL}`);
        if (!this.running) throw new Error('stopped');
        this.client = client;
        // Notices may have been missed while not listening: every open view fetches again.
        if (attempt > 0) this.broadcast('event: result\ndata: {}\n\n');
      } catch (err) {
        if (client) this.release(client, err);
        if (!this.running) return;
        const delay = Math.min(RECONNECT_MAX_MS, 500 * 2 ** attempt);
        this.options.logger.warn({ err, delay }, 'live results: LISTEN failed, retrying');
        this.retry = setTimeout(() => void this.connect(attempt + 1), delay);
        this.retry.unref();
      }
    })();
    this.connecting = connecting;
    return connecting;
  }

  private readonly onNotification = (n: pg.Notification) => {
    if (n.channel === LIVE_CHANNEL && n.payload) this.deliver(n.payload);
  };

  private readonly onError = (err: Error) => {
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    this.release(client, err);
    if (this.running) {
      this.options.logger.warn({ err }, 'live results: LISTEN connection lost, reconnecting');
      void this.connect(1);
    }
  };

  private release(client: pg.PoolClient, err?: unknown): void {
    client.off('notification', this.onNotification);
    client.off('error', this.onError);
    client.release(err instanceof Error ? err : undefined);
  }

  private deliver(payload: string): void {
    let notice: LiveNotice;
    try {
      notice = JSON.parse(payload) as LiveNotice;
    } catch {
      return;
    }
    const streams = this.streams.get(notice.classId);
    if (!streams) return;
    const event = notice.kind === 'progress' ? 'progress' : 'result';
    const frame = `event: ${event}\ndata: ${JSON.stringify({ classId: notice.classId, assessmentId: notice.assessmentId, ...(notice.resultId ? { resultId: notice.resultId } : {}) })}\n\n`;
    for (const res of streams) res.write(frame);
  }

  private broadcast(frame: string): void {
    for (const res of this.all) res.write(frame);
  }

  /**
   * Holds the response open as one event stream of the classes (one or more) until the client goes
   * (or maxAgeMs); it counts as one stream whatever the number of classes.
   */
  subscribe(classIds: readonly string[], userId: string, req: Request, res: Response): void {
    // The client may have gone while its access was being checked: then there is nothing to hold.
    if (req.destroyed || res.destroyed || res.writableEnded) return;
    if (this.draining || this.open >= this.options.maxStreams)
      throw new ServiceUnavailableError('Too many live views open; try again soon');
    // One account holding hundreds of streams would take the process's share from every other
    // teacher: a few tabs each, the new one refused (the older tabs keep theirs).
    const mine = this.perUser.get(userId) ?? 0;
    if (mine >= this.options.maxStreamsPerUser)
      throw new TooManyRequestsError(
        `You have ${mine} live views open; close a tab to open another`,
        Math.ceil(this.options.heartbeatMs / 1000),
      );
    this.perUser.set(userId, mine + 1);
    this.open++;
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: the gateway's compression must not buffer the stream.
      'Cache-Control': 'no-store, no-transform',
      // (No Connection header: hop-by-hop, Node's to set; the proxy never passed it on anyway.)
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 3000\n\n');
    this.all.add(res);
    for (const classId of classIds) {
      const set = this.streams.get(classId) ?? new Set<Response>();
      set.add(res);
      this.streams.set(classId, set);
    }
    const expiry = setTimeout(() => res.end(), this.options.maxAgeMs);
    expiry.unref();
    res.once('close', () => {
      clearTimeout(expiry);
      this.open--;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
      this.all.delete(res);
      for (const classId of classIds) {
        const set = this.streams.get(classId);
        set?.delete(res);
        if (set?.size === 0) this.streams.delete(classId);
      }
    });
  }

  /** Ends every stream and refuses new ones (the browsers reconnect to another process). */
  endStreams(): void {
    this.draining = true;
    for (const res of this.all) res.end();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearInterval(this.heartbeat);
    clearTimeout(this.retry);
    this.endStreams();
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.query(`unlisten ${LIVE_CHANNEL}`).catch(() => {});
      this.release(client);
    }
  }
}
