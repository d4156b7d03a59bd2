import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerStore, type PendingAnswer } from './answerStore';
import { AUTOSAVE_DELAY_MS, Autosaver, RESEND_FIRST_DELAY_MS, type AutosaverOptions } from './autosaver';

let databases = 0;
let online = true;

async function setup(send: (p: PendingAnswer) => Promise<void>, options: AutosaverOptions = {}) {
  databases += 1;
  const store = await AnswerStore.open('u1', 'a1', createStore(`autosave-test-${databases}`, 'answers'));
  // Only the timers the autosaver uses are faked: IndexedDB keeps working underneath.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const saver = new Autosaver(store, send, { isOnline: () => online, ...options });
  return { store, saver };
}

const apiError = (status: number, code?: string) => ({ status, message: `${status}: x`, code });

describe('autosaver', () => {
  beforeEach(() => {
    online = true;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('when the student types, then one save goes out after the pause, with the last answer', async () => {
    const sent: PendingAnswer[] = [];
    const { store, saver } = await setup(async (p) => void sent.push(p));
    for (const text of ['c', 'ch', 'chl', 'chloroplast']) {
      store.setAnswer('q1', text);
      saver.changed();
      await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS - 100);
    }
    expect(sent).toEqual([]);
    expect(saver.getSnapshot().status).toBe('saving');
    await vi.advanceTimersByTimeAsync(100);
    expect(sent.map((p) => p.answer)).toEqual(['chloroplast']);
    expect(store.pending()).toEqual([]);
    expect(saver.getSnapshot().status).toBe('saved');
  });

  it('when asked to flush, then the change goes at once and the pending pause is dropped', async () => {
    const sent: string[] = [];
    const { store, saver } = await setup(async (p) => void sent.push(p.answer));
    store.setAnswer('q1', 'Paris');
    saver.changed();
    const outcome = await saver.flush();
    expect(outcome).toEqual({ sent: 1, failed: 0 });
    expect(sent).toEqual(['Paris']);
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toEqual(['Paris']);
  });

  it('when the browser is offline, then nothing is sent, the answers stay in the journal and go out once online', async () => {
    const sent: string[] = [];
    const { store, saver } = await setup(async (p) => void sent.push(p.answer));
    online = false;
    store.setAnswer('q1', 'Paris');
    saver.changed();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 3);
    expect(sent).toEqual([]);
    expect(saver.getSnapshot().status).toBe('offline');
    expect((await saver.flush()).failed).toBe(1);
    expect(store.pending().map((p) => p.answer)).toEqual(['Paris']);

    online = true;
    saver.wentOnline();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['Paris']);
    expect(saver.getSnapshot().status).toBe('saved');
  });

  it('when the server cannot be reached, then the save is tried again later, a little later each time', async () => {
    const tries: number[] = [];
    const { store, saver } = await setup(async () => {
      tries.push(Date.now());
      if (tries.length < 3) throw apiError(503);
    });
    store.setAnswer('q1', 'Paris');
    await saver.flush();
    expect(tries).toHaveLength(1);
    expect(saver.getSnapshot().status).toBe('retrying');
    await vi.advanceTimersByTimeAsync(RESEND_FIRST_DELAY_MS);
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RESEND_FIRST_DELAY_MS);
    // The second wait is twice as long.
    expect(tries).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RESEND_FIRST_DELAY_MS);
    expect(tries).toHaveLength(3);
    expect(saver.getSnapshot().status).toBe('saved');
  });

  it('when the server refuses the save for good, then it says so once and does not retry', async () => {
    const refused: unknown[] = [];
    let tries = 0;
    const { store, saver } = await setup(
      async () => {
        tries += 1;
        throw apiError(409, 'assessment_inactive');
      },
      { onRefused: (error) => refused.push(error) },
    );
    store.setAnswer('q1', 'Paris');
    saver.changed();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 60_000);
    expect(tries).toBe(1);
    expect(refused).toEqual([apiError(409, 'assessment_inactive')]);
    expect(saver.getSnapshot()).toEqual({ status: 'refused', error: apiError(409, 'assessment_inactive') });
  });

  it('when disposed while a pause is pending, then nothing more goes out by itself', async () => {
    const sent: string[] = [];
    const { store, saver } = await setup(async (p) => void sent.push(p.answer));
    store.setAnswer('q1', 'Paris');
    saver.changed();
    saver.dispose();
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS * 2);
    expect(sent).toEqual([]);
    expect(store.pending()).toHaveLength(1);
  });
});
