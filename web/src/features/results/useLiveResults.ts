// Live class view: while the page is open, the analytics service pushes a `result` event (server-sent
// events through the gateway) whenever a result of the class is submitted or changes, and the
// results queries are fetched again, LIVE_REFRESH_DELAY_MS after the first notice: the notices
// that come meanwhile (a class submitting at once) join that fetch. (Waiting for a quiet moment
// instead would starve the page while a class keeps submitting: bench/README.md, Analytics.) EventSource reconnects by itself; after a reconnect the page fetches again, since
// notices may have been missed while the connection was down. A `progress` notice (a student's
// count of answered questions moved) fetches only what shows progress: the live progress panel
// and the grid.
import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { classesApi } from '../classes';
import { resultsApi } from './resultsApi';

export const LIVE_REFRESH_DELAY_MS = 300;

export function useLiveResults(classId: string | undefined): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!classId || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/dashboard/live?classId=${encodeURIComponent(classId)}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let opened = false;
    let results = false;
    const schedule = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        if (results) {
          results = false;
          dispatch(resultsApi.util.invalidateTags(['Results']));
          // The class's level counts (summary cards) follow results too.
          dispatch(classesApi.util.invalidateTags(['Class']));
        } else {
          dispatch(resultsApi.util.invalidateTags(['Progress']));
        }
      }, LIVE_REFRESH_DELAY_MS);
    };
    const refresh = () => {
      results = true;
      schedule();
    };
    source.addEventListener('result', refresh);
    source.addEventListener('progress', schedule);
    source.addEventListener('open', () => {
      // The first open follows the page's own fetch; only a reconnect needs another.
      if (opened) refresh();
      opened = true;
    });
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [classId, dispatch]);
}
