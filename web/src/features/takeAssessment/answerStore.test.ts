import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AnswerStore, storeKey, type PendingAnswer } from './answerStore';

describe('local answer store', () => {
  beforeEach(() => {
    window.localStorage.clear();
  });

  it('when answers are set, then a new store for the same user and assessment restores them', () => {
    const store = new AnswerStore('u1', 'a1');
    store.setAnswer('q1', 'Paris');
    store.setAnswer('q2', 'True');
    store.setIndex(1);

    const reloaded = new AnswerStore('u1', 'a1');
    expect(reloaded.answers()).toEqual({ q1: 'Paris', q2: 'True' });
    expect(reloaded.index()).toBe(1);
    expect(new AnswerStore('u2', 'a1').answers()).toEqual({});
    expect(window.localStorage.getItem(storeKey('u1', 'a1'))).toContain('Paris');
  });

  it('when an answer changes, then its client sequence grows and only the latest is pending', () => {
    const store = new AnswerStore('u1', 'a1');
    const first = store.setAnswer('q1', 'A');
    const second = store.setAnswer('q1', 'B');
    expect(second).toBeGreaterThan(first);
    expect(store.pending()).toEqual([{ questionId: 'q1', answer: 'B', clientSeq: second }]);
  });

  it('when sync succeeds, then nothing is pending, also after a reload', async () => {
    const store = new AnswerStore('u1', 'a1');
    store.setAnswer('q1', 'A');
    store.setAnswer('q2', 'B');
    const sent: PendingAnswer[] = [];
    const outcome = await store.sync(async (p) => {
      sent.push(p);
    });
    expect(outcome).toEqual({ sent: 2, failed: 0 });
    expect(sent.map((p) => p.questionId)).toEqual(['q1', 'q2']);
    expect(new AnswerStore('u1', 'a1').pending()).toEqual([]);
  });

  it('when the connection is lost, then the answers stay queued and are sent later', async () => {
    const store = new AnswerStore('u1', 'a1');
    store.setAnswer('q1', 'A');
    store.setAnswer('q2', 'B');
    const offline = vi.fn(async () => {
      throw new Error('Failed to fetch');
    });
    const outcome = await store.sync(offline);
    expect(outcome.failed).toBe(2);
    expect(offline).toHaveBeenCalledTimes(1);

    const reloaded = new AnswerStore('u1', 'a1');
    expect(reloaded.pending()).toHaveLength(2);
    const online = vi.fn(async () => undefined);
    await reloaded.sync(online);
    expect(online).toHaveBeenCalledTimes(2);
    expect(reloaded.pending()).toEqual([]);
  });

  it('when an answer changes while it is being sent, then the newer answer stays pending', async () => {
    const store = new AnswerStore('u1', 'a1');
    store.setAnswer('q1', 'A');
    await store.sync(async () => {
      store.setAnswer('q1', 'B');
    });
    expect(store.pending()).toEqual([expect.objectContaining({ questionId: 'q1', answer: 'B' })]);
  });

  it('when the server holds answers, then they fill the gaps but local answers win', () => {
    const store = new AnswerStore('u1', 'a1');
    store.setAnswer('q1', 'local');
    store.mergeServer([
      { questionId: 'q1', answer: 'server', clientSeq: 1 },
      { questionId: 'q2', answer: 'other device', clientSeq: 7 },
    ]);
    expect(store.answers()).toEqual({ q1: 'local', q2: 'other device' });
    expect(store.setAnswer('q3', 'x')).toBe(8);
  });

  it('when cleared, then the stored entry is gone', () => {
    const store = new AnswerStore('u1', 'a1');
    store.setAnswer('q1', 'A');
    store.clear();
    expect(window.localStorage.getItem(storeKey('u1', 'a1'))).toBeNull();
    expect(new AnswerStore('u1', 'a1').answers()).toEqual({});
  });
});
