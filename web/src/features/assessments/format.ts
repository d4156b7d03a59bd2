import { formatDate as formatLocaleDate, formatDateTime as formatLocaleDateTime } from '../../i18n/format';

/** A date as the screens show it (e.g. 3/5/2024); empty for a missing or broken value. */
export function formatDate(value: string | null | undefined): string {
  return formatLocaleDate(value);
}

/** A date and time as the screens show it (e.g. 12/1/2026, 3:00 PM); empty for a missing or broken value. */
export function formatDateTime(value: string | null | undefined): string {
  return formatLocaleDateTime(value);
}

/** Which attempt a result is and whether it counts, as the student's views say it. */
export function attemptText(r: {
  attempt: number;
  maxAttempts: number;
  counted: boolean;
  countedAttempt: 'latest' | 'best';
}): string {
  const which = r.countedAttempt === 'best' ? 'your best attempt counts' : 'your latest attempt counts';
  return `Attempt ${r.attempt} of ${r.maxAttempts} · ${r.counted ? 'this attempt counts' : `does not count (${which})`}`;
}
