// Live class view: while the page is open, the analytics service pushes a `result` event (server-sent
// events through the gateway) whenever a result of the class is submitted or changes, and the
// results queries are fetched again, LIVE_REFRESH_DELAY_MS after the first notice: the notices
// that come meanwhile (a class submitting at once) join that fetch. (Waiting for a quiet moment
// instead would starve the page while a class keeps submitting: bench/README.md, Analytics.) EventSource reconnects by itself; after a reconnect the page fetches again, since
// notices may have been missed while the connection was down. A `progress` notice (a student's
// count of answered questions moved) fetches only what shows progress: the live progress panel
// and the grid. An assessment given to several classes is followed in all of them through one
// stream (`classId=a,b`: one connection, whatever the number of classes).
import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { classesApi } from '../classes';
import { resultsApi } from './resultsApi';

export const LIVE_REFRESH_DELAY_MS = 300;
/** Classes one stream may follow (the server's limit: as many as an assessment may be given to). */
export const MAX_LIVE_CLASSES = 50;

/** The classes to follow (one, or several), or undefined while they are not known. */
export function useLiveResults(classIds: string | readonly string[] | undefined): void {
  const dispatch = useAppDispatch();
  // One key for the same classes in any order: a new list of the same classes keeps the stream.
  const key =
    classIds === undefined
      ? ''
      : [...new Set(typeof classIds === 'string' ? [classIds] : classIds)]
          .filter(Boolean)
          .sort()
          .slice(0, MAX_LIVE_CLASSES)
          .join(',');
  useEffect(() => {
    if (!key || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/dashboard/live?classId=${key.split(',').map(encodeURIComponent).join(',')}`);
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
  }, [key, dispatch]);
}
