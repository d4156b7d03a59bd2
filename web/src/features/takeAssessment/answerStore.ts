// Answers kept in the browser while taking an assessment (IndexedDB via idb-keyval, one entry per
// user and assessment), so a reload or a lost connection loses nothing. The state lives in memory
// and is written through to IndexedDB in the background; AnswerStore.open reads it back first.
// Every change gets a client sequence number; answers not yet accepted by the server form the sync
// queue, sent when back online and before submit. The server keeps the save with the highest
// clientSeq.
import { createStore, del, get, set, type UseStore } from 'idb-keyval';

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

/** Key of a user's answers to one assessment: in IndexedDB, and in localStorage before (migrated on open). */
export function storeKey(userId: string, assessmentId: string): string {
  return `${STORE_PREFIX}:${userId}:${assessmentId}`;
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

/** The entry an earlier version kept in localStorage, if any and well-formed. */
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

  /** Use AnswerStore.open. Without db the store lives in memory only. */
  private constructor(
    private readonly key: string,
    private readonly db: UseStore | undefined,
    private state: AnswerState,
  ) {}

  /**
   * Reads the saved answers (taking over an old localStorage entry once). Never rejects: when
   * IndexedDB is unavailable, fails or hangs, the store works in memory for this visit and leaves
   * whatever IndexedDB may hold untouched.
   */
  static async open(userId: string, assessmentId: string, db?: UseStore): Promise<AnswerStore> {
    const key = storeKey(userId, assessmentId);
    let idb: UseStore | undefined;
    let saved: unknown;
    try {
      idb = db ?? defaultDb();
      saved = await within(get<unknown>(key, idb), OPEN_TIMEOUT_MS);
    } catch {
      idb = undefined;
    }
    if (idb && saved !== undefined) {
      removeLegacy(key); // IndexedDB's entry is the newer one
      return new AnswerStore(key, idb, isState(saved) ? saved : empty());
    }

    const legacy = readLegacy(key);
    if (idb) {
      try {
        if (legacy) await within(set(key, legacy, idb), OPEN_TIMEOUT_MS);
        removeLegacy(key); // taken over, or unreadable
      } catch {
        // Not taken over: the entry stays in localStorage for a later visit.
      }
    }
    return new AnswerStore(key, idb, legacy ?? empty());
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
    if (!this.db) return;
    const scheduled = this.queued !== null;
    this.queued = kind;
    if (scheduled) return;
    const db = this.db;
    this.writes = this.writes.then(async () => {
      const next = this.queued;
      this.queued = null;
      try {
        if (next === 'delete') await del(this.key, db);
        else await set(this.key, this.state, db);
      } catch {
        // Storage full or blocked: the answers still live in memory for this visit.
      }
    });
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

  /** Records a change; returns its client sequence number. */
  setAnswer(questionId: string, answer: string): number {
    const seq = this.state.seq + 1;
    this.state = {
      ...this.state,
      seq,
      answers: { ...this.state.answers, [questionId]: { answer, seq, synced: false } },
    };
    this.write();
    return seq;
  }

  /**
   * Fills in answers the server already holds (another tab or device) for questions this browser
   * has no answer for; local answers are newer or equal and win.
   */
  mergeServer(saved: { questionId: string; answer: string; clientSeq: number | null }[]): void {
    const answers = { ...this.state.answers };
    let seq = this.state.seq;
    for (const s of saved) {
      seq = Math.max(seq, s.clientSeq ?? 0);
      if (!answers[s.questionId]) answers[s.questionId] = { answer: s.answer, seq: s.clientSeq ?? 0, synced: true };
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
    this.write('delete');
  }
}

export interface SyncOutcome {
  sent: number;
  failed: number;
  error?: unknown;
}
