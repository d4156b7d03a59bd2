// Percentages shown on the class screens (rounded whole numbers, 0 with nothing to count).
import type { ClassItem } from './classesApi';
import { formatDate as formatLocaleDate } from '../../i18n/format';

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

/** A level card's note: the share of the students with a result, or that there is none yet. */
export function assessedShare(percentage: number, assessed: number): string {
  return assessed === 0 ? 'No results yet' : `${percentage}% of ${assessed} assessed`;
}

export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return formatLocaleDate(date, { year: 'numeric', month: 'short', day: 'numeric' });
}

export function periodLabel(period: string | null | undefined): string | null {
  return period ? `Period ${period}` : null;
}

/** 'name - Period N'; a class without a period shows its name only. */
export function classLabel(cls: { name: string; period: string | null }): string {
  return cls.period ? `${cls.name} - Period ${cls.period}` : cls.name;
}
