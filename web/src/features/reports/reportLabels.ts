// The report filters' defaults (their names are in the results namespace: reports.timeframe.*, reports.type.*).
import type { ReportQuery } from '../results';

/** The defaults: all classes, the past month, the performance report. */
export const DEFAULT_REPORT_QUERY: ReportQuery = { classIds: [], timeframe: 'month', type: 'performance' };
