// A timed attempt's time left, counted down from what the server last said (`secondsLeft`, its own
// clock): the browser only measures the time elapsed since that answer (performance.now), so a
// wrong clock on the device changes nothing. Null while untimed or not started.
import { useEffect, useState } from 'react';

export function useTimeLeft(secondsLeft: number | null | undefined): number | null {
  const [left, setLeft] = useState<number | null>(secondsLeft ?? null);
  useEffect(() => {
    if (secondsLeft === null || secondsLeft === undefined) {
      setLeft(null);
      return;
    }
    const deadline = performance.now() + secondsLeft * 1000;
    const tick = () => setLeft(Math.max(0, Math.ceil((deadline - performance.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [secondsLeft]);
  return left;
}

/** 125 → "2:05"; 3,725 → "1:02:05". */
export function clockText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
