import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import type { Report } from '../results/resultsApi';

function SummaryCard({ label, value, note, tone }: { label: string; value: string; note?: string; tone?: string }) {
  return (
    <Col>
      <Card className={`shadow-sm h-100${tone ? ` border-${tone}` : ''}`}>
        <Card.Body>
          <div className="small text-body-secondary">{label}</div>
          <div className={`fs-4 fw-bold${tone ? ` text-${tone}` : ''}`} data-testid={`summary-${label}`}>
            {value}
          </div>
          {note && <div className="small text-body-secondary">{note}</div>}
        </Card.Body>
      </Card>
    </Col>
  );
}

/** The report's summary cards; levels on the 80/60 bands with their share of all results. */
export function ReportSummary({ summary }: { summary: Report['summary'] }) {
  return (
    <Row xs={2} md={3} className="g-3">
      <SummaryCard label="Total Results" value={String(summary.totalResults)} />
      <SummaryCard label="Average Score" value={`${Math.round(summary.averageScore)}%`} />
      <SummaryCard label="Students Assessed" value={String(summary.studentsAssessed)} />
      <SummaryCard
        label="Above Standard"
        value={String(summary.aboveStandard)}
        note={`${summary.abovePercent}% of results`}
        tone="success"
      />
      <SummaryCard
        label="At Standard"
        value={String(summary.atStandard)}
        note={`${summary.atPercent}% of results`}
        tone="warning"
      />
      <SummaryCard
        label="Below Standard"
        value={String(summary.belowStandard)}
        note={`${summary.belowPercent}% of results`}
        tone="danger"
      />
    </Row>
  );
}
