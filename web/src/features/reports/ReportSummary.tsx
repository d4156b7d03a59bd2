import Row from 'react-bootstrap/Row';
import type { Report } from '../results';
import { StatCard } from '../../components/StatCard';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';
import { formatPercent } from '../../i18n/format';

/**
 * The report's summary cards: results counted by their level (a raised result at its raised level,
 * as in the table below them; docs/adr/005), each with its share of all results.
 */
export function ReportSummary({ summary }: { summary: Report['summary'] }) {
  const { t } = useTranslation('results');
  const label = useLabel();
  const share = (value: number) => t('page.ofResults', { percent: formatPercent(value) });
  return (
    <Row xs={2} md={3} className="g-3">
      <StatCard label={t('reports.totalResults')} testId="summary-Total Results" value={String(summary.totalResults)} />
      <StatCard
        label={t('page.averageScore')}
        testId="summary-Average Score"
        value={summary.averageScore === null ? '—' : formatPercent(summary.averageScore)}
        note={summary.averageScore === null ? t('page.noAttempts') : undefined}
      />
      <StatCard
        label={t('reports.studentsAssessed')}
        testId="summary-Students Assessed"
        value={String(summary.studentsAssessed)}
      />
      <StatCard
        label={label('Above Standard')}
        testId="summary-Above Standard"
        value={String(summary.aboveStandard)}
        note={share(summary.abovePercent)}
        tone="success"
      />
      <StatCard
        label={label('At Standard')}
        testId="summary-At Standard"
        value={String(summary.atStandard)}
        note={share(summary.atPercent)}
        tone="warning"
      />
      <StatCard
        label={label('Below Standard')}
        testId="summary-Below Standard"
        value={String(summary.belowStandard)}
        note={share(summary.belowPercent)}
        tone="danger"
      />
    </Row>
  );
}
