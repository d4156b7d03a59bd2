// Answers kept in the browser while taking an assessment (localStorage, one entry per user and
// assessment), so a reload or a lost connection loses nothing. Every change gets a client sequence
// number; answers not yet accepted by the server form the sync queue, sent when back online and
// before submit. The server keeps the save with the highest clientSeq.

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

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const STORE_PREFIX = 'checkpoint.answers.v1';

export function storeKey(userId: string, assessmentId: string): string {
  return `${STORE_PREFIX}:${userId}:${assessmentId}`;
}

function empty(): AnswerState {
  return { answers: {}, seq: 0, index: 0 };
}

function isState(value: unknown): value is AnswerState {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<AnswerState>;
  return typeof v.seq === 'number' && typeof v.index === 'number' && !!v.answers && typeof v.answers === 'object';
}

function defaultStorage(): KeyValueStorage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export class AnswerStore {
  private state: AnswerState;
  private readonly key: string;
  private syncing: Promise<SyncOutcome> | null = null;

  constructor(
    userId: string,
    assessmentId: string,
    private readonly storage: KeyValueStorage | undefined = defaultStorage(),
  ) {
    this.key = storeKey(userId, assessmentId);
    this.state = this.read();
  }

  private read(): AnswerState {
    try {
      const raw = this.storage?.getItem(this.key);
      if (!raw) return empty();
      const parsed: unknown = JSON.parse(raw);
      return isState(parsed) ? parsed : empty();
    } catch {
      return empty();
    }
  }

  private write(): void {
    try {
      this.storage?.setItem(this.key, JSON.stringify(this.state));
    } catch {
      // Storage full or blocked: the answers still live in memory for this visit.
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
    try {
      this.storage?.removeItem(this.key);
    } catch {
      // Nothing more to do.
    }
  }
}

export interface SyncOutcome {
  sent: number;
  failed: number;
  error?: unknown;
}
