// Percentages shown on the class screens (rounded whole numbers, 0 with nothing to count).
import type { ClassItem } from './classesApi';
import { formatDate as formatLocaleDate, formatPercent } from '../../i18n/format';
import type { TFunction } from '../../i18n/i18n';

export function percent(count: number, total: number): number {
  if (!total || total <= 0) return 0;
  return Math.round((count / total) * 100);
}

/**
 * A class's students by the server's level of their latest result (a level raised by practice
 * counts as raised, docs/adr/005): each level's count and its share of the students with a result.
 */
export function classSummary(cls: Pick<ClassItem, 'studentCount' | 'belowStandard' | 'atStandard' | 'aboveStandard'>) {
  const assessed = cls.belowStandard + cls.atStandard + cls.aboveStandard;
  return {
    totalStudents: cls.studentCount,
    assessed,
    atStandard: cls.atStandard,
    aboveStandard: cls.aboveStandard,
    needSupport: cls.belowStandard,
    atPercent: percent(cls.atStandard, assessed),
    abovePercent: percent(cls.aboveStandard, assessed),
    needSupportPercent: percent(cls.belowStandard, assessed),
  };
}

/**
 * A level card's note: the share of the students with a result, or that there is none yet; with a
 * translator (a screen's `t`, the teacher namespace loaded) in the interface's language.
 */
export function assessedShare(percentage: number, assessed: number, t?: TFunction): string {
  if (t)
    return assessed === 0
      ? t('teacher:classStats.noResults')
      : t('teacher:classStats.assessedShare', { percent: formatPercent(percentage), count: assessed });
  return assessed === 0 ? 'No results yet' : `${percentage}% of ${assessed} assessed`;
}

export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return formatLocaleDate(date, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** 'Period N'; with a translator (the teacher namespace loaded) in the interface's language. */
export function periodLabel(period: string | null | undefined, t?: TFunction): string | null {
  if (!period) return null;
  return t ? t('teacher:classStats.period', { period }) : `Period ${period}`;
}

/** 'name - Period N'; a class without a period shows its name only. */
export function classLabel(cls: { name: string; period: string | null }, t?: TFunction): string {
  if (!cls.period) return cls.name;
  return t
    ? t('teacher:classStats.withPeriod', { name: cls.name, period: cls.period })
    : `${cls.name} - Period ${cls.period}`;
}
