// Readable names of the report filters and of a class in the class filter.
import type { ReportQuery, ReportType, Timeframe } from '../results';

export const TIMEFRAME_LABELS: Record<Timeframe, string> = {
  week: 'Past Week',
  month: 'Past Month',
  quarter: 'Past Quarter',
  year: 'Past Year',
  all: 'All Time',
};

export const REPORT_TYPE_LABELS: Record<ReportType, string> = {
  performance: 'Performance Summary',
  detailed: 'Detailed Results',
  standards: 'Standards Mastery',
  progress: 'Student Progress',
};

/** The defaults: all classes, the past month, the performance report. */
export const DEFAULT_REPORT_QUERY: ReportQuery = { classIds: [], timeframe: 'month', type: 'performance' };
