// The taking page's autosave (autosaver.ts) tied to the page's life: the connection coming and
// going, and the page being left (closed, hidden by a phone switching apps, or another screen
// opened), when the unsent answers go out at once and, if IndexedDB is still writing, into
// synchronous storage (AnswerStore.keepUnwritten).
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { AnswerStore, SendAnswer } from './answerStore';
import { Autosaver, type SaveState } from './autosaver';

interface Options {
  store: AnswerStore;
  send: SendAnswer;
  /** False for a teacher's preview: nothing is sent. */
  enabled: boolean;
  onRefused?: (error: unknown) => void;
  delayMs?: number;
}

export function useAutosave({ store, send, enabled, onRefused, delayMs }: Options): {
  saver: Autosaver;
  state: SaveState;
} {
  const latest = useRef({ send, onRefused });
  useEffect(() => {
    latest.current = { send, onRefused };
  });
  const [saver] = useState(
    () =>
      new Autosaver(store, (p) => latest.current.send(p), {
        delayMs,
        onRefused: (error) => latest.current.onRefused?.(error),
      }),
  );
  const state = useSyncExternalStore(saver.subscribe, saver.getSnapshot);

  useEffect(() => {
    if (!enabled) return;
    saver.start();
    // Answers left unsent by an earlier visit go out when the page opens online.
    if (navigator.onLine && store.pending().length > 0) void saver.flush();
    const onOnline = () => saver.wentOnline();
    const onOffline = () => saver.wentOffline();
    const leave = () => {
      store.keepUnwritten();
      if (store.pending().length > 0) void saver.flush();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    window.addEventListener('online', onOnline);
    window.addEventListener('offline', onOffline);
    window.addEventListener('pagehide', leave);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', onOnline);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('pagehide', leave);
      document.removeEventListener('visibilitychange', onVisibility);
      // Another screen of the app opened: what waits for the pause goes now.
      if (store.pending().length > 0) void saver.flush();
      saver.dispose();
    };
  }, [enabled, saver, store]);

  return { saver, state };
}
