// The live class view: GET /api/dashboard/live?classId=… is a server-sent event stream that says
// `result` whenever a result of the class is stored or changes. The consumers send the notice with
// pg_notify in their transaction, so it goes out at commit and reaches every analytics process
// (whichever one consumed the event); each process keeps one LISTEN connection for all its streams.
import type { Request, Response } from 'express';
import type pg from 'pg';
import { ServiceUnavailableError, type Logger } from '@checkpoint/service-kit';
import { LIVE_CHANNEL } from '../data-access/read-model.writer.ts';

export interface LiveNotice {
  classId: string;
  assessmentId: string;
  resultId?: string;
}

export class LiveResults {
  private readonly streams = new Map<string, Set<Response>>();
  private client: pg.PoolClient | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private open = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: { heartbeatMs: number; maxStreams: number; logger: Logger },
  ) {}

  async start(): Promise<void> {
    await this.listen();
    this.heartbeat = setInterval(() => this.broadcastAll(': ping\n\n'), this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    client.on('notification', (n) => {
      if (n.channel === LIVE_CHANNEL && n.payload) this.deliver(n.payload);
    });
    // A lost LISTEN connection is replaced, and every stream is told to refetch (it may have missed notices).
    client.on('error', (err) => {
      this.options.logger.warn({ err }, 'live results: LISTEN connection lost, reconnecting');
      client.release(err);
      if (this.client === client) this.client = undefined;
      setTimeout(() => {
        if (this.heartbeat)
          void this.listen().then(
            () => this.broadcastAll('event: result\ndata: {}\n\n'),
            () => {},
          );
      }, 1_000).unref();
    });
    await client.query(`listen ${LIVE_CHANNEL}`);
    this.client = client;
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
    const frame = `event: result\ndata: ${JSON.stringify(notice)}\n\n`;
    for (const res of streams) res.write(frame);
  }

  private broadcastAll(frame: string): void {
    for (const streams of this.streams.values()) for (const res of streams) res.write(frame);
  }

  /** Holds the response open as an event stream of one class until the client goes. */
  subscribe(classId: string, req: Request, res: Response): void {
    if (this.open >= this.options.maxStreams)
      throw new ServiceUnavailableError('Too many live views open; try again soon');
    this.open++;
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      // no-transform: the gateway's compression must not buffer the stream.
      'Cache-Control': 'no-store, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.write('retry: 3000\n\n');
    const set = this.streams.get(classId) ?? new Set<Response>();
    set.add(res);
    this.streams.set(classId, set);
    req.on('close', () => {
      this.open--;
      set.delete(res);
      if (set.size === 0 && this.streams.get(classId) === set) this.streams.delete(classId);
    });
  }

  /** Ends every stream (the browsers reconnect, to another process when this one is going away). */
  endStreams(): void {
    for (const streams of this.streams.values()) for (const res of streams) res.end();
    this.streams.clear();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.endStreams();
    const client = this.client;
    this.client = undefined;
    if (client) {
      await client.query(`unlisten ${LIVE_CHANNEL}`).catch(() => {});
      client.release();
    }
  }
}
