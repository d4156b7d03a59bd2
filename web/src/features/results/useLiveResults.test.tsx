import { act, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { useGetClassQuery } from '../classes';
import { useGetClassGridQuery } from './resultsApi';
import { LIVE_REFRESH_DELAY_MS, useLiveResults } from './useLiveResults';

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static last: FakeEventSource | undefined;
  readonly listeners = new Map<string, (() => void)[]>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
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

afterEach(() => vi.unstubAllGlobals());

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
});
