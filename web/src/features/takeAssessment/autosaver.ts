// Sends the answers kept in the browser (AnswerStore, the journal) to the server while the student
// works: AUTOSAVE_DELAY_MS after the last change, at once when asked (Next, Previous, Save
// Progress, Submit, leaving the page) and when the connection comes back. A try that fails for a
// passing reason is tried again, a little later each time. Nothing is tried while the browser says
// it is offline (Chromium may still deliver a request it reported failed): the answers wait in the
// journal, which keeps them across reloads, and go out in order once online.
import { isRetryableError } from '../../api/apiError';
import type { AnswerStore, SendAnswer, SyncOutcome } from './answerStore';

/** A pause in typing this long sends the change: one request per pause, not per keystroke. */
export const AUTOSAVE_DELAY_MS = 800;
/** Retries after a passing failure: 2 s, 4 s, … at most 30 s. */
export const RESEND_FIRST_DELAY_MS = 2_000;
export const RESEND_MAX_DELAY_MS = 30_000;

export type SaveStatus =
  /** Nothing answered yet. */
  | 'idle'
  /** Every answer is on the server. */
  | 'saved'
  /** A change waits for the pause or is on its way. */
  | 'saving'
  /** The browser is offline: the answers are kept on this device. */
  | 'offline'
  /** The server could not be reached (or was busy): tried again later. */
  | 'retrying'
  /** The server refused for a reason that will not pass by itself (e.g. the assessment closed). */
  | 'refused';

export interface SaveState {
  status: SaveStatus;
  /** The failure behind 'retrying' and 'refused'. */
  error?: unknown;
}

export interface AutosaverOptions {
  delayMs?: number;
  isOnline?: () => boolean;
  /** Called once per refused try, with the server's error. */
  onRefused?: (error: unknown) => void;
}

type Timer = ReturnType<typeof setTimeout>;

export class Autosaver {
  private readonly delayMs: number;
  private readonly isOnline: () => boolean;
  private debounce: Timer | undefined;
  private retry: Timer | undefined;
  private retryDelay = RESEND_FIRST_DELAY_MS;
  private inFlight = 0;
  /** After dispose no timer starts: a save still on its way may fail without a retry. */
  private disposed = false;
  private failure: { error: unknown; passing: boolean } | null = null;
  private state: SaveState;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: AnswerStore,
    private readonly send: SendAnswer,
    private readonly options: AutosaverOptions = {},
  ) {
    this.delayMs = options.delayMs ?? AUTOSAVE_DELAY_MS;
    this.isOnline = options.isOnline ?? (() => navigator.onLine);
    this.state = this.compute();
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): SaveState => this.state;

  /** A change was recorded in the store: it goes out once the student pauses. */
  changed(): void {
    if (this.disposed) return;
    clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = undefined;
      void this.flush();
    }, this.delayMs);
    this.emit();
  }

  /** True while a change waits for the pause or a save is on its way. */
  busy(): boolean {
    return this.debounce !== undefined || this.inFlight > 0;
  }

  /** Sends every unsent answer now. Offline, sends nothing and reports them as failed. */
  async flush(): Promise<SyncOutcome> {
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    this.debounce = undefined;
    this.retry = undefined;
    if (!this.isOnline()) {
      this.emit();
      return { sent: 0, failed: this.store.pending().length, error: new Error('Offline') };
    }
    this.inFlight += 1;
    this.emit();
    let outcome: SyncOutcome;
    try {
      outcome = await this.store.sync(this.send);
    } finally {
      this.inFlight -= 1;
    }
    if (outcome.failed === 0) {
      this.failure = null;
      this.retryDelay = RESEND_FIRST_DELAY_MS;
    } else if (!this.isOnline()) {
      // Lost the connection while sending: coming back online sends them.
      this.failure = null;
    } else if (isRetryableError(outcome.error)) {
      this.failure = { error: outcome.error, passing: true };
      if (!this.disposed && this.retry === undefined && this.debounce === undefined) {
        this.retry = setTimeout(() => {
          this.retry = undefined;
          void this.flush();
        }, this.retryDelay);
        this.retryDelay = Math.min(this.retryDelay * 2, RESEND_MAX_DELAY_MS);
      }
    } else {
      this.failure = { error: outcome.error, passing: false };
      this.options.onRefused?.(outcome.error);
    }
    this.emit();
    return outcome;
  }

  /** The connection came back: send at once, retries starting short again. */
  wentOnline(): void {
    this.retryDelay = RESEND_FIRST_DELAY_MS;
    if (this.store.pending().length > 0) void this.flush();
    else this.emit();
  }

  wentOffline(): void {
    clearTimeout(this.retry);
    this.retry = undefined;
    this.emit();
  }

  /** (Again) in use, after dispose: React runs effects twice in development. */
  start(): void {
    this.disposed = false;
  }

  /** Stops the timers (the page is gone); a save already on its way still lands in the store. */
  dispose(): void {
    this.disposed = true;
    clearTimeout(this.debounce);
    clearTimeout(this.retry);
    this.debounce = undefined;
    this.retry = undefined;
  }

  private compute(): SaveState {
    const unsent = this.store.pending().length;
    if (this.failure && !this.failure.passing) return { status: 'refused', error: this.failure.error };
    if (unsent === 0 && !this.busy()) {
      return { status: Object.keys(this.store.answers()).length > 0 ? 'saved' : 'idle' };
    }
    if (!this.isOnline()) return { status: 'offline' };
    if (this.failure && unsent > 0) return { status: 'retrying', error: this.failure.error };
    return { status: 'saving' };
  }

  private emit(): void {
    const next = this.compute();
    if (next.status === this.state.status && next.error === this.state.error) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
