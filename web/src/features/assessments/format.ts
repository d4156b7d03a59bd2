import { i18n } from '../../i18n/i18n';
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
  const which = i18n.t(r.countedAttempt === 'best' ? 'common:attempt.bestCounts' : 'common:attempt.latestCounts');
  const counts = r.counted ? i18n.t('common:attempt.counts') : i18n.t('common:attempt.doesNotCount', { which });
  return i18n.t('common:attempt.text', { attempt: r.attempt, max: r.maxAttempts, counts });
}
