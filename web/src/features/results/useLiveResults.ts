// Live class view: while the page is open, the analytics service pushes a `result` event (server-sent
// events through the gateway) whenever a result of the class is submitted or changes, and the
// results queries are fetched again. EventSource reconnects by itself after a dropped connection.
import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { classesApi } from '../classes/classesApi';
import { resultsApi } from './resultsApi';

export function useLiveResults(classId: string | undefined): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!classId || typeof EventSource === 'undefined') return;
    const source = new EventSource(`/api/dashboard/live?classId=${encodeURIComponent(classId)}`);
    const refresh = () => {
      dispatch(resultsApi.util.invalidateTags(['Results']));
      // The class's level counts (summary cards) follow results too.
      dispatch(classesApi.util.invalidateTags(['Class']));
    };
    source.addEventListener('result', refresh);
    // After a reconnect, results submitted while the connection was down are fetched too.
    source.addEventListener('open', refresh);
    return () => source.close();
  }, [classId, dispatch]);
}
