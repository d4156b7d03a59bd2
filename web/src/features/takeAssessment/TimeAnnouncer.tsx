// Timer accessibility (#32 item 4): on a timed attempt the page says, in words a screen reader
// reads out, when 5 minutes are left (politely) and when 1 minute is left (at once, assertive),
// and a "Time left" button says the time left whenever the student asks. The live regions are in
// the page from the start (a region added with its text is not read by every screen reader).
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/react';
import { i18n } from '../../i18n/i18n';

export const WARNINGS = [
  { at: 300, politeness: 'polite' },
  { at: 60, politeness: 'assertive' },
] as const;

/** 330 → "5 minutes 30 seconds"; 60 → "1 minute". */
export function spokenTime(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const part = (n: number, unit: string) => (n > 0 ? i18n.t(`take:time.${unit}`, { count: n }) : '');
  return (
    [part(h, 'hour'), part(m, 'minute'), part(s, 'second')].filter(Boolean).join(' ') ||
    i18n.t('take:time.second', { count: 0 })
  );
}

export function TimeAnnouncer({ timeLeft }: { timeLeft: number | null }) {
  const { t } = useTranslation('take');
  const [polite, setPolite] = useState('');
  const [assertive, setAssertive] = useState('');
  const warned = useRef(new Set<number>());
  // Each warning once, when the time left first reaches it (a page opened with less time left
  // gets the nearest one).
  useEffect(() => {
    if (timeLeft === null || timeLeft <= 0) return;
    const due = WARNINGS.filter((w) => timeLeft <= w.at && !warned.current.has(w.at));
    const last = due[due.length - 1];
    if (!last) return;
    for (const w of due) warned.current.add(w.at);
    // At the crossing the round figure; a page opened later says what is really left.
    const text = i18n.t('take:time.left', { time: spokenTime(last.at - timeLeft <= 2 ? last.at : timeLeft) });
    if (last.politeness === 'assertive') setAssertive(text);
    else setPolite(text);
  }, [timeLeft]);

  if (timeLeft === null) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-link btn-sm p-0 align-baseline"
        onClick={() => {
          const text = t('time.leftColon', { time: spokenTime(timeLeft) });
          // The same words twice are still read: a no-break space tells the region it changed.
          setPolite((prev) => (prev === text ? `${text}\u00a0` : text));
        }}
      >
        {t('timeLeftLabel')}
      </button>
      <span className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="time-polite">
        {polite}
      </span>
      <span className="visually-hidden" aria-live="assertive" aria-atomic="true" data-testid="time-assertive">
        {assertive}
      </span>
    </>
  );
}
