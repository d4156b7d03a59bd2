import 'fake-indexeddb/auto';
import { createStore, get, set, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AnswerStore,
  OPEN_TIMEOUT_MS,
  storeKey,
  unwrittenKey,
  type AnswerState,
  type PendingAnswer,
} from './answerStore';

// Each test has a database of its own; every open() gets a new connection to it, as a page load would.
let dbName = '';
let databases = 0;
const db = (): UseStore => createStore(dbName, 'answers');
// The store's clock (sequence numbers follow it): 0 unless a test moves it, so sequences count 1, 2, …
let now = 0;
const clock = () => now;
const open = (userId = 'u1', assessmentId = 'a1'): Promise<AnswerStore> =>
  AnswerStore.open(userId, assessmentId, db(), clock);

/** A reload: what was written survives, the memory does not. */
async function reload(store: AnswerStore, userId = 'u1', assessmentId = 'a1'): Promise<AnswerStore> {
  await store.persisted();
  return open(userId, assessmentId);
}

/** Delays the first write, as a busy disk might; later ones go straight through. */
function slowFirstWrite(inner: UseStore, ms: number): { db: UseStore; idle: () => Promise<unknown> } {
  let writes = 0;
  const started: Promise<unknown>[] = [];
  const db: UseStore = (mode, callback) => {
    const wait = mode === 'readwrite' && writes++ === 0 ? ms : 0;
    const done = new Promise((resolve) => setTimeout(resolve, wait)).then(() => inner(mode, callback));
    started.push(done);
    return done;
  };
  // Every write started so far has landed, whatever the store under test waits for.
  return { db, idle: () => Promise.allSettled(started) };
}

const legacyState: AnswerState = {
  answers: { q1: { answer: 'Paris', seq: 1, synced: true }, q2: { answer: 'True', seq: 2, synced: false } },
  seq: 2,
  index: 1,
};

describe('local answer store', () => {
  beforeEach(() => {
    window.localStorage.clear();
    now = 0;
    databases += 1;
    dbName = `answers-test-${databases}`;
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('when answers are set, then a new store for the same user and assessment restores them', async () => {
    const store = await open();
    store.setAnswer('q1', 'Paris');
    store.setAnswer('q2', 'True');
    store.setIndex(1);

    const reloaded = await reload(store);
    expect(reloaded.answers()).toEqual({ q1: 'Paris', q2: 'True' });
    expect(reloaded.index()).toBe(1);
    expect((await open('u2', 'a1')).answers()).toEqual({});
    expect(await get(storeKey('u1', 'a1'), db())).toMatchObject({ index: 1, answers: { q1: { answer: 'Paris' } } });
    expect(window.localStorage.getItem(storeKey('u1', 'a1'))).toBeNull();
  });

  it('when an answer changes, then its client sequence grows and only the latest is pending', async () => {
    const store = await open();
    const first = store.setAnswer('q1', 'A');
    const second = store.setAnswer('q1', 'B');
    expect(second).toBeGreaterThan(first);
    expect(store.pending()).toEqual([{ questionId: 'q1', answer: 'B', clientSeq: second }]);
    expect((await reload(store)).pending()).toEqual([{ questionId: 'q1', answer: 'B', clientSeq: second }]);
  });

  it('when two changes follow each other quickly, then the later one is what a reload finds', async () => {
    const slow = slowFirstWrite(db(), 50);
    const store = await AnswerStore.open('u1', 'a1', slow.db, clock);
    store.setAnswer('q1', 'A');
    store.setAnswer('q1', 'B');
    expect(store.answers()).toEqual({ q1: 'B' });

    await store.persisted();
    await slow.idle();
    const reloaded = await open();
    expect(reloaded.answers()).toEqual({ q1: 'B' });
    expect(reloaded.pending()).toEqual([{ questionId: 'q1', answer: 'B', clientSeq: 2 }]);
  });

  it('when sync succeeds, then nothing is pending, also after a reload', async () => {
    const store = await open();
    store.setAnswer('q1', 'A');
    store.setAnswer('q2', 'B');
    const sent: PendingAnswer[] = [];
    const outcome = await store.sync(async (p) => {
      sent.push(p);
    });
    expect(outcome).toEqual({ sent: 2, failed: 0 });
    expect(sent.map((p) => p.questionId)).toEqual(['q1', 'q2']);
    expect((await reload(store)).pending()).toEqual([]);
  });

  it('when the connection is lost, then the answers stay queued and are sent later', async () => {
    const store = await open();
    store.setAnswer('q1', 'A');
    store.setAnswer('q2', 'B');
    const offline = vi.fn(async () => {
      throw new Error('Failed to fetch');
    });
    const outcome = await store.sync(offline);
    expect(outcome.failed).toBe(2);
    expect(offline).toHaveBeenCalledTimes(1);

    const reloaded = await reload(store);
    expect(reloaded.pending()).toHaveLength(2);
    const online = vi.fn(async () => undefined);
    await reloaded.sync(online);
    expect(online).toHaveBeenCalledTimes(2);
    expect(reloaded.pending()).toEqual([]);
  });

  it('when an answer changes while it is being sent, then the newer answer stays pending', async () => {
    const store = await open();
    store.setAnswer('q1', 'A');
    await store.sync(async () => {
      store.setAnswer('q1', 'B');
    });
    expect(store.pending()).toEqual([expect.objectContaining({ questionId: 'q1', answer: 'B' })]);
    expect((await reload(store)).pending()).toEqual([expect.objectContaining({ questionId: 'q1', answer: 'B' })]);
  });

  it('when the server holds answers, then they fill the gaps but local answers win', async () => {
    const store = await open();
    store.setAnswer('q1', 'local');
    store.mergeServer([
      { questionId: 'q1', answer: 'server', clientSeq: 1 },
      { questionId: 'q2', answer: 'other device', clientSeq: 7 },
    ]);
    expect(store.answers()).toEqual({ q1: 'local', q2: 'other device' });
    expect(store.setAnswer('q3', 'x')).toBe(8);
    // A later change made elsewhere (higher sequence) is the one the server counts: it is shown.
    store.mergeServer([{ questionId: 'q1', answer: 'changed in another tab', clientSeq: 9 }]);
    expect(store.answers().q1).toBe('changed in another tab');
    expect(store.pending().map((p) => p.questionId)).toEqual(['q3']);
  });

  it("when two tabs answer, then neither loses the other tab's answers and the later change of a question wins", async () => {
    now = 1_000;
    const first = await open();
    const second = await open();
    first.setAnswer('q1', 'first tab');
    now = 2_000;
    second.setAnswer('q2', 'second tab');
    second.setAnswer('q1', 'changed in the second tab');
    now = 3_000;
    first.setAnswer('q3', 'first tab again');
    await first.persisted();
    await second.persisted();

    const reloaded = await open();
    expect(reloaded.answers()).toEqual({
      q1: 'changed in the second tab',
      q2: 'second tab',
      q3: 'first tab again',
    });
    // Sequences follow the clock: the server, too, keeps the second tab's q1 over the first's.
    expect(first.pending().find((p) => p.questionId === 'q1')!.clientSeq).toBe(1_000);
    expect(reloaded.pending().find((p) => p.questionId === 'q1')!.clientSeq).toBeGreaterThan(1_000);
  });

  it('when the page is left before IndexedDB has the last change, then the next open still has it', async () => {
    // IndexedDB takes 1 s for the first write: the page goes before it lands.
    const slow = slowFirstWrite(db(), 1_000);
    const leaving = await AnswerStore.open('u1', 'a1', slow.db, clock);
    leaving.setAnswer('q1', 'A');
    leaving.setIndex(3);
    leaving.keepUnwritten();
    expect(window.localStorage.getItem(unwrittenKey('u1', 'a1'))).not.toBeNull();

    // The next page load opens before the old page's write lands (or instead of it).
    const next = await open();
    expect(next.answers()).toEqual({ q1: 'A' });
    expect(next.index()).toBe(3);
    expect(next.pending()).toEqual([{ questionId: 'q1', answer: 'A', clientSeq: 1 }]);
    expect(window.localStorage.getItem(unwrittenKey('u1', 'a1'))).toBeNull();
    await slow.idle();
    expect((await open()).answers()).toEqual({ q1: 'A' });
  });

  it('when every change is written, then leaving the page keeps nothing in localStorage', async () => {
    const store = await open();
    store.setAnswer('q1', 'A');
    await store.persisted();
    store.keepUnwritten();
    expect(window.localStorage.getItem(unwrittenKey('u1', 'a1'))).toBeNull();
  });

  it('when cleared, then the stored entry is gone', async () => {
    const store = await open();
    store.setAnswer('q1', 'A');
    store.clear();
    expect(store.answers()).toEqual({});
    await store.persisted();
    expect(await get(storeKey('u1', 'a1'), db())).toBeUndefined();
    expect((await open()).answers()).toEqual({});
  });

  it('when the stored value is not ours, then the store starts empty', async () => {
    await set(storeKey('u1', 'a1'), 'garbage', db());
    await set(storeKey('u2', 'a1'), { seq: 'x', index: 0, answers: {} }, db());
    expect((await open()).answers()).toEqual({});
    expect((await open('u2')).answers()).toEqual({});
  });

  it('when the answers were kept in localStorage by an earlier version, then they move to IndexedDB', async () => {
    window.localStorage.setItem(storeKey('u1', 'a1'), JSON.stringify(legacyState));
    window.localStorage.setItem(storeKey('u2', 'a1'), '{not json');

    const store = await open();
    expect(store.answers()).toEqual({ q1: 'Paris', q2: 'True' });
    expect(store.index()).toBe(1);
    expect(store.pending()).toEqual([{ questionId: 'q2', answer: 'True', clientSeq: 2 }]);
    expect(window.localStorage.getItem(storeKey('u1', 'a1'))).toBeNull();
    expect(await get(storeKey('u1', 'a1'), db())).toEqual(legacyState);
    expect((await open()).answers()).toEqual({ q1: 'Paris', q2: 'True' });

    expect((await open('u2')).answers()).toEqual({});
    expect(window.localStorage.getItem(storeKey('u2', 'a1'))).toBeNull();
  });

  it('when IndexedDB already holds the answers, then an old localStorage entry is not taken', async () => {
    await set(storeKey('u1', 'a1'), { answers: {}, seq: 0, index: 2 }, db());
    window.localStorage.setItem(storeKey('u1', 'a1'), JSON.stringify(legacyState));
    const store = await open();
    expect(store.answers()).toEqual({});
    expect(store.index()).toBe(2);
  });

  it.each([
    [
      'throws',
      (() => {
        throw new DOMException('A mutation operation was attempted on a database that did not allow mutations.');
      }) as UseStore,
    ],
    ['rejects', (() => Promise.reject(new DOMException('Blocked', 'InvalidStateError'))) as UseStore],
  ])('when IndexedDB %s, then the store works in memory for the visit', async (_, broken) => {
    window.localStorage.setItem(storeKey('u1', 'a1'), JSON.stringify(legacyState));
    const store = await AnswerStore.open('u1', 'a1', broken);
    // The old entry is used but stays where it is: nothing else holds it.
    expect(store.answers()).toEqual({ q1: 'Paris', q2: 'True' });
    expect(window.localStorage.getItem(storeKey('u1', 'a1'))).not.toBeNull();

    store.setAnswer('q3', 'C');
    store.setIndex(2);
    expect(store.pending().map((p) => p.questionId)).toEqual(['q2', 'q3']);
    expect(await store.sync(async () => undefined)).toEqual({ sent: 2, failed: 0 });
    store.clear();
    await store.persisted();
    expect(store.answers()).toEqual({});
  });

  it('when IndexedDB does not answer, then the store opens in memory after a while and writes nothing', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const hanging: UseStore = () => {
      calls += 1;
      return new Promise(() => undefined);
    };
    const opening = AnswerStore.open('u1', 'a1', hanging);
    await vi.advanceTimersByTimeAsync(OPEN_TIMEOUT_MS);
    const store = await opening;
    store.setAnswer('q1', 'A');
    await store.persisted();
    expect(store.answers()).toEqual({ q1: 'A' });
    expect(calls).toBe(1);
  });

  it('when no database is given, then the app database is used', async () => {
    const store = await AnswerStore.open('default-user', 'a1');
    store.setAnswer('q1', 'A');
    await store.persisted();
    expect((await AnswerStore.open('default-user', 'a1')).answers()).toEqual({ q1: 'A' });
    expect(await get(storeKey('default-user', 'a1'), createStore('checkpoint-answers', 'answers'))).toBeDefined();
  });
});
