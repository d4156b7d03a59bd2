// Answers kept in the browser while taking an assessment (IndexedDB via idb-keyval, one entry per
// user and assessment), so a reload or a lost connection loses nothing. The state lives in memory
// and is written through to IndexedDB in the background; AnswerStore.open reads it back first.
// Every change gets a client sequence number; answers not yet accepted by the server form the sync
// queue, sent when back online and before submit. The server keeps the save with the highest
// clientSeq.
//
// Two tabs (or a tab and its reload) may hold the same entry: sequence numbers follow the clock, so
// the later change has the higher one in every tab, and each write merges with what is stored, per
// question, the higher sequence winning. A page being left while a write is still on its way keeps
// its state in localStorage (synchronous), merged back the same way on the next open.
import { createStore, del, get, update, type UseStore } from 'idb-keyval';

export interface StoredAnswer {
  answer: string;
  /** Client sequence of the latest change. */
  seq: number;
  /** True once the server accepted this very change (same seq). */
  synced: boolean;
}

export interface AnswerState {
  answers: Record<string, StoredAnswer>;
  /** Last sequence number handed out. */
  seq: number;
  /** Question the student was on. */
  index: number;
}

export interface PendingAnswer {
  questionId: string;
  answer: string;
  clientSeq: number;
}

export type SendAnswer = (pending: PendingAnswer) => Promise<void>;

export const STORE_PREFIX = 'checkpoint.answers.v1';
const UNWRITTEN_PREFIX = 'checkpoint.answers.unwritten.v1';

/** Key of a user's answers to one assessment: in IndexedDB, and in localStorage before (migrated on open). */
export function storeKey(userId: string, assessmentId: string): string {
  return `${STORE_PREFIX}:${userId}:${assessmentId}`;
}

/** localStorage key of the state a page kept when it was left before IndexedDB had it. */
export function unwrittenKey(userId: string, assessmentId: string): string {
  return `${UNWRITTEN_PREFIX}:${userId}:${assessmentId}`;
}

/**
 * Both states' answers, per question the change with the higher sequence (on a tie the one the
 * server accepted). The index is `mine`'s: each tab keeps its own place.
 */
export function mergeStates(mine: AnswerState, other: AnswerState | undefined): AnswerState {
  if (!other) return mine;
  const answers = { ...other.answers };
  for (const [id, a] of Object.entries(mine.answers)) {
    const o = answers[id];
    if (!o || a.seq > o.seq || (a.seq === o.seq && a.synced)) answers[id] = a;
  }
  return { answers, seq: Math.max(mine.seq, other.seq), index: mine.index };
}

/** How long open() waits for IndexedDB before going on in memory (some browsers hang instead of failing). */
export const OPEN_TIMEOUT_MS = 3_000;

function empty(): AnswerState {
  return { answers: {}, seq: 0, index: 0 };
}

function isState(value: unknown): value is AnswerState {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<AnswerState>;
  return typeof v.seq === 'number' && typeof v.index === 'number' && !!v.answers && typeof v.answers === 'object';
}

let answersDb: UseStore | undefined;

/**
 * The app's own database, with this one object store (idb-keyval cannot add stores to an existing
 * database). Created on first use, not at import: jsdom and some private modes have no IndexedDB.
 */
function defaultDb(): UseStore {
  answersDb ??= createStore('checkpoint-answers', 'answers');
  return answersDb;
}

/** Rejects when the promise does not settle in time (it may still settle later, unobserved). */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('IndexedDB did not answer in time')), ms);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

function legacyStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** A state kept in localStorage (by an earlier version, or at unload), if any and well-formed. */
function readLegacy(key: string): AnswerState | undefined {
  try {
    const raw = legacyStorage()?.getItem(key);
    if (!raw) return undefined;
    const parsed: unknown = JSON.parse(raw);
    return isState(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function removeLegacy(key: string): void {
  try {
    legacyStorage()?.removeItem(key);
  } catch {
    // Nothing more to do.
  }
}

type Write = 'put' | 'delete';

export class AnswerStore {
  private syncing: Promise<SyncOutcome> | null = null;
  /** Write waiting to start (coalesced: it stores the state as it is when it starts). */
  private queued: Write | null = null;
  /** Tail of the write chain: one write at a time, in order. Never rejects. */
  private writes: Promise<void> = Promise.resolve();

  /** Changes made so far, and how many of them IndexedDB has. */
  private changes = 0;
  private written = 0;

  /** Use AnswerStore.open. Without db the store lives in memory only. */
  private constructor(
    private readonly key: string,
    private readonly unwrittenKey: string,
    private readonly db: UseStore | undefined,
    private state: AnswerState,
    private readonly clock: () => number,
  ) {}

  /**
   * Reads the saved answers (taking over an old localStorage entry once, and what a page left
   * unwritten at unload). Never rejects: when IndexedDB is unavailable, fails or hangs, the store
   * works in memory for this visit and leaves whatever IndexedDB may hold untouched.
   */
  static async open(
    userId: string,
    assessmentId: string,
    db?: UseStore,
    clock: () => number = Date.now,
  ): Promise<AnswerStore> {
    const key = storeKey(userId, assessmentId);
    const unwritten = unwrittenKey(userId, assessmentId);
    let idb: UseStore | undefined;
    let saved: unknown;
    try {
      idb = db ?? defaultDb();
      saved = await within(get<unknown>(key, idb), OPEN_TIMEOUT_MS);
    } catch {
      idb = undefined;
    }
    const stored = idb && saved !== undefined ? (isState(saved) ? saved : empty()) : undefined;
    // An earlier version's localStorage entry counts only when IndexedDB has none (IndexedDB's is newer).
    const legacy = stored ? undefined : readLegacy(key);
    // What a page left unwritten is the latest: its answers win by sequence, its place is kept.
    const left = readLegacy(unwritten);
    const base = stored ?? legacy;
    const state = left ? mergeStates(left, base) : (base ?? empty());
    const store = new AnswerStore(key, unwritten, idb, state, clock);
    if (idb) {
      try {
        if (legacy || left)
          await within(
            update<unknown>(key, (current) => mergeStates(state, isState(current) ? current : undefined), idb),
            OPEN_TIMEOUT_MS,
          );
        // Taken over, older than IndexedDB's entry, or unreadable.
        removeLegacy(key);
        removeLegacy(unwritten);
      } catch {
        // Not taken over: the entries stay in localStorage for a later visit.
      }
    }
    return store;
  }

  /**
   * A store in memory only, for the teacher's "Try as a student": nothing goes to IndexedDB or
   * localStorage, and it is gone with the page.
   */
  static inMemory(clock: () => number = Date.now): AnswerStore {
    return new AnswerStore('', '', undefined, empty(), clock);
  }

  /** Resolves once every change made so far is written to IndexedDB (or failed to be). */
  persisted(): Promise<void> {
    return this.writes;
  }

  /**
   * Queues a write of the current state (or the deletion). Writes go out one at a time, each taking
   * the state as it is when it starts: a later write never lands before an earlier one, and a burst
   * of changes (typing) costs at most one write in flight and one waiting.
   */
  private write(kind: Write = 'put'): void {
    this.changes += 1;
    if (!this.db) return;
    const scheduled = this.queued !== null;
    this.queued = kind;
    if (scheduled) return;
    const db = this.db;
    this.writes = this.writes.then(async () => {
      const next = this.queued;
      const upTo = this.changes;
      this.queued = null;
      try {
        if (next === 'delete') await del(this.key, db);
        // Merged with what another tab may have stored since: its newer answers stay.
        else
          await update<unknown>(
            this.key,
            (stored) => mergeStates(this.state, isState(stored) ? stored : undefined),
            db,
          );
        this.written = upTo;
      } catch {
        // Storage full or blocked: the answers still live in memory for this visit.
      }
    });
  }

  /**
   * For the page being left (pagehide, or hidden): when IndexedDB does not have every change yet,
   * the state goes to localStorage now, synchronously, and the next open merges it back.
   */
  keepUnwritten(): void {
    if (!this.db || this.written === this.changes || this.queued === 'delete') return;
    try {
      legacyStorage()?.setItem(this.unwrittenKey, JSON.stringify(this.state));
    } catch {
      // Storage full: nothing more can be done while the page goes.
    }
  }

  /** Answers by question id. */
  answers(): Record<string, string> {
    return Object.fromEntries(Object.entries(this.state.answers).map(([id, a]) => [id, a.answer]));
  }

  index(): number {
    return this.state.index;
  }

  setIndex(index: number): void {
    this.state = { ...this.state, index };
    this.write();
  }

  /**
   * Records a change; returns its client sequence number: the clock in ms, or one more than the
   * last when that is higher, so that a later change in any tab of this browser has a higher one.
   */
  setAnswer(questionId: string, answer: string): number {
    const seq = Math.max(this.state.seq + 1, Math.floor(this.clock()));
    this.state = {
      ...this.state,
      seq,
      answers: { ...this.state.answers, [questionId]: { answer, seq, synced: false } },
    };
    this.write();
    return seq;
  }

  /**
   * Takes the answers the server already holds (another tab or device) for questions this browser
   * has no answer for, or only an older change of (lower sequence: the server keeps the highest, so
   * that is the answer that counts). Otherwise the local answer wins.
   */
  mergeServer(saved: { questionId: string; answer: string; clientSeq: number | null }[]): void {
    const answers = { ...this.state.answers };
    let seq = this.state.seq;
    for (const s of saved) {
      const serverSeq = s.clientSeq ?? 0;
      seq = Math.max(seq, serverSeq);
      const local = answers[s.questionId];
      if (!local || serverSeq > local.seq) answers[s.questionId] = { answer: s.answer, seq: serverSeq, synced: true };
    }
    this.state = { ...this.state, seq, answers };
    this.write();
  }

  pending(): PendingAnswer[] {
    return Object.entries(this.state.answers)
      .filter(([, a]) => !a.synced)
      .map(([questionId, a]) => ({ questionId, answer: a.answer, clientSeq: a.seq }))
      .sort((x, y) => x.clientSeq - y.clientSeq);
  }

  /** Marks a change as accepted, unless the answer changed again since it was sent. */
  markSynced(questionId: string, clientSeq: number): void {
    const current = this.state.answers[questionId];
    if (!current || current.seq !== clientSeq) return;
    this.state = { ...this.state, answers: { ...this.state.answers, [questionId]: { ...current, synced: true } } };
    this.write();
  }

  /** Sends every unsent answer in order; stops at the first failure. One sync at a time. */
  sync(send: SendAnswer): Promise<SyncOutcome> {
    if (this.syncing) {
      const running = this.syncing;
      // A change made during a running sync is picked up by a second pass.
      return running.then(() => this.sync(send));
    }
    this.syncing = (async (): Promise<SyncOutcome> => {
      let sent = 0;
      for (const item of this.pending()) {
        try {
          await send(item);
        } catch (error) {
          return { sent, failed: this.pending().length, error };
        }
        this.markSynced(item.questionId, item.clientSeq);
        sent += 1;
      }
      return { sent, failed: 0 };
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  /** Forgets everything (after a successful submit). */
  clear(): void {
    this.state = empty();
    if (this.unwrittenKey) removeLegacy(this.unwrittenKey);
    this.write('delete');
  }
}

export interface SyncOutcome {
  sent: number;
  failed: number;
  error?: unknown;
}
