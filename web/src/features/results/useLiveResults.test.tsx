import { useState } from 'react';
import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { useGetClassQuery } from '../classes';
import { useGetAssessmentResultsQuery, useGetClassGridQuery } from './resultsApi';
import { LIVE_REFRESH_DELAY_MS, useLiveResults } from './useLiveResults';

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static last: FakeEventSource | undefined;
  static made: FakeEventSource[] = [];
  readonly listeners = new Map<string, (() => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, fn: () => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string) {
    for (const fn of this.listeners.get(type) ?? []) fn();
  }
  close() {
    this.closed = true;
  }
}

const GRID = { classId: 'c1', className: 'Algebra', students: [], assessments: [], cells: [], inProgress: [] };

function LiveGrid() {
  useLiveResults('c1');
  useGetClassGridQuery('c1');
  return null;
}

/** The grid and the class (its summary cards), as the class page shows them. */
function LiveClassPage() {
  useLiveResults('c1');
  useGetClassGridQuery('c1');
  useGetClassQuery('c1');
  return null;
}

/** The results page of an assessment given to several classes: it follows the classes it is given. */
let giveTo: (classIds: string[]) => void = () => {};
function LiveAssessmentResults({ initial }: { initial: string[] }) {
  const [classIds, setClassIds] = useState(initial);
  giveTo = setClassIds;
  useLiveResults(classIds);
  useGetAssessmentResultsQuery('a1');
  return null;
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeEventSource.made = [];
});

describe('useLiveResults', () => {
  it('when results arrive together or keep coming, then the grid is fetched once per delay, not starved; the first open fetches nothing extra', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const fetchMock = stubFetch({ 'GET /api/classes/c1/grid': () => jsonResponse(200, GRID) });
    const gridCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/grid')).length;
    const { unmount } = renderWithProviders(<LiveGrid />);
    await waitFor(() => expect(gridCalls()).toBe(1));
    const source = FakeEventSource.last!;
    expect(source.url).toBe('/api/dashboard/live?classId=c1');

    act(() => source.emit('open'));
    act(() => {
      source.emit('result');
      source.emit('result');
      source.emit('result');
    });
    await new Promise((r) => setTimeout(r, LIVE_REFRESH_DELAY_MS + 100));
    await waitFor(() => expect(gridCalls()).toBe(2));

    // While notices keep coming, the page still fetches every LIVE_REFRESH_DELAY_MS.
    for (let i = 0; i < 6; i++) {
      act(() => source.emit('result'));
      await new Promise((r) => setTimeout(r, LIVE_REFRESH_DELAY_MS / 3));
    }
    await waitFor(() => expect(gridCalls()).toBeGreaterThanOrEqual(4));
    const afterBurst = gridCalls();

    // A reconnect may have missed notices: it fetches again.
    await new Promise((r) => setTimeout(r, LIVE_REFRESH_DELAY_MS + 100));
    const settled = gridCalls();
    expect(settled).toBeGreaterThanOrEqual(afterBurst);
    act(() => source.emit('open'));
    await waitFor(() => expect(gridCalls()).toBe(settled + 1), { timeout: 2000 });
    unmount();
    expect(source.closed).toBe(true);
  });

  it('when a progress notice comes, then what shows progress (the grid) is fetched again, and the class summary is not', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const fetchMock = stubFetch({
      'GET /api/classes/c1/grid': () => jsonResponse(200, GRID),
      'GET /api/classes/c1': () => jsonResponse(200, {}),
    });
    const calls = (part: string) => fetchMock.mock.calls.filter(([url]) => String(url).endsWith(part)).length;
    renderWithProviders(<LiveClassPage />);
    await waitFor(() => expect(calls('/grid')).toBe(1));
    await waitFor(() => expect(calls('/api/classes/c1')).toBe(1));
    const source = FakeEventSource.last!;
    act(() => source.emit('open'));
    act(() => {
      source.emit('progress');
      source.emit('progress');
    });
    await new Promise((r) => setTimeout(r, LIVE_REFRESH_DELAY_MS + 100));
    await waitFor(() => expect(calls('/grid')).toBe(2));
    expect(calls('/api/classes/c1')).toBe(1);
    // A result notice refreshes both.
    act(() => source.emit('result'));
    await new Promise((r) => setTimeout(r, LIVE_REFRESH_DELAY_MS + 100));
    await waitFor(() => expect(calls('/api/classes/c1')).toBe(2));
    expect(calls('/grid')).toBe(3);
  });

  it('when the assessment is given to several classes, then one stream follows them all, a result in the second class fetches the results again, and only a change of classes reconnects', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const fetchMock = stubFetch({ 'GET /api/assessments/a1/results': () => jsonResponse(200, {}) });
    const resultCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/a1/results')).length;
    const { unmount } = renderWithProviders(<LiveAssessmentResults initial={['c1', 'c2']} />);
    await waitFor(() => expect(resultCalls()).toBe(1));
    expect(FakeEventSource.made.map((s) => s.url)).toEqual(['/api/dashboard/live?classId=c1,c2']);
    const source = FakeEventSource.last!;
    act(() => source.emit('open'));

    // A submit in the second class comes on the same stream: the results are fetched again.
    act(() => source.emit('result'));
    await new Promise((r) => setTimeout(r, LIVE_REFRESH_DELAY_MS + 100));
    await waitFor(() => expect(resultCalls()).toBe(2));

    // The same classes again (a new list, another order): the stream stays.
    act(() => giveTo(['c2', 'c1', 'c2']));
    expect(FakeEventSource.made).toHaveLength(1);
    expect(source.closed).toBe(false);

    // Given to a third class: the old stream closes and one of the three opens.
    act(() => giveTo(['c1', 'c2', 'c3']));
    expect(source.closed).toBe(true);
    expect(FakeEventSource.made.map((s) => s.url)).toEqual([
      '/api/dashboard/live?classId=c1,c2',
      '/api/dashboard/live?classId=c1,c2,c3',
    ]);
    unmount();
    expect(FakeEventSource.last!.closed).toBe(true);
  });

  it('when no class is known yet, then no stream is opened', () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    stubFetch({});
    renderWithProviders(<LiveAssessmentResults initial={[]} />);
    expect(FakeEventSource.made).toHaveLength(0);
  });
});
