// Dates, numbers and percentages as the screens show them, in the interface's language (Intl with
// the locale's tag: en-US, es-US). Every screen formats through these, never toLocale*() bare.
import { i18n } from './i18n';
import { intlTag } from './locales';

function tag(): string {
  return intlTag(i18n.resolvedLanguage ?? i18n.language ?? 'en');
}

function parse(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date (e.g. 3/5/2024, 5/3/2024 in Spanish); empty for a missing or broken value. */
export function formatDate(
  value: string | number | Date | null | undefined,
  options: Intl.DateTimeFormatOptions = {},
): string {
  const date = parse(value);
  return date ? new Intl.DateTimeFormat(tag(), options).format(date) : '';
}

/** A date and time (e.g. 12/1/2026, 3:00 PM); empty for a missing or broken value. */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' },
): string {
  return formatDate(value, options);
}

/** A time of day (e.g. 3:05 PM). */
export function formatTime(value: string | number | Date | null | undefined): string {
  return formatDate(value, { hour: 'numeric', minute: '2-digit' });
}

export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return new Intl.NumberFormat(tag(), options).format(value);
}

/** A percentage from 0–100 (e.g. 87 → "87%", "87 %" in Spanish). */
export function formatPercent(value: number, maximumFractionDigits = 0): string {
  return new Intl.NumberFormat(tag(), { style: 'percent', maximumFractionDigits }).format(value / 100);
}
