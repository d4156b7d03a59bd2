// Percentages shown on the class screens (spec §4, §9: rounded whole numbers, 0 with nothing to count).
import type { ClassItem } from './classesApi';

export function percent(count: number, total: number): number {
  if (!total || total <= 0) return 0;
  return Math.round((count / total) * 100);
}

/** Teacher dashboard summary of one class: results are the below + at + above counts. */
export function classSummary(cls: Pick<ClassItem, 'studentCount' | 'belowStandard' | 'atStandard' | 'aboveStandard'>) {
  const results = cls.belowStandard + cls.atStandard + cls.aboveStandard;
  return {
    totalStudents: cls.studentCount,
    atStandard: cls.atStandard,
    abovePercent: percent(cls.aboveStandard, results),
    needSupportPercent: percent(cls.belowStandard, results),
  };
}

export function formatDate(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

export function periodLabel(period: string | null | undefined): string | null {
  return period ? `Period ${period}` : null;
}

/** 'name - Period N'; a class without a period shows its name only. */
export function classLabel(cls: { name: string; period: string | null }): string {
  return cls.period ? `${cls.name} - Period ${cls.period}` : cls.name;
}
