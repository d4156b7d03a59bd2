import Row from 'react-bootstrap/Row';
import type { Report } from '../results';
import { StatCard } from '../../components/StatCard';

/**
 * The report's summary cards: results counted by their level (a raised result at its raised level,
 * as in the table below them; docs/adr/005), each with its share of all results.
 */
export function ReportSummary({ summary }: { summary: Report['summary'] }) {
  return (
    <Row xs={2} md={3} className="g-3">
      <StatCard label="Total Results" testId="summary-Total Results" value={String(summary.totalResults)} />
      <StatCard
        label="Average Score"
        testId="summary-Average Score"
        value={summary.averageScore === null ? '—' : `${Math.round(summary.averageScore)}%`}
        note={summary.averageScore === null ? 'No attempts yet' : undefined}
      />
      <StatCard label="Students Assessed" testId="summary-Students Assessed" value={String(summary.studentsAssessed)} />
      <StatCard
        label="Above Standard"
        testId="summary-Above Standard"
        value={String(summary.aboveStandard)}
        note={`${summary.abovePercent}% of results`}
        tone="success"
      />
      <StatCard
        label="At Standard"
        testId="summary-At Standard"
        value={String(summary.atStandard)}
        note={`${summary.atPercent}% of results`}
        tone="warning"
      />
      <StatCard
        label="Below Standard"
        testId="summary-Below Standard"
        value={String(summary.belowStandard)}
        note={`${summary.belowPercent}% of results`}
        tone="danger"
      />
    </Row>
  );
}
