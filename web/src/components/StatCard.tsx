// One figure on a card, in a grid column: the stat and summary cards of the dashboards, the class
// page, the results pages and the reports. A tone colours the border and the figure (the label
// says what it is, so colour is not the only carrier).
import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';

interface StatCardProps {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  /** react-bootstrap colour: success, warning, danger… */
  tone?: string;
  /** Default `stat-{label}`. */
  testId?: string;
}

export function StatCard({ label, value, note, tone, testId = `stat-${label}` }: StatCardProps) {
  return (
    <Col>
      <Card className={`shadow-sm h-100${tone ? ` border-${tone}` : ''}`}>
        <Card.Body>
          <div className="small text-body-secondary">{label}</div>
          <div className={`fs-3 fw-bold${tone ? ` text-${tone}-emphasis` : ''}`} data-testid={testId}>
            {value}
          </div>
          {note && <div className="small text-body-secondary">{note}</div>}
        </Card.Body>
      </Card>
    </Col>
  );
}
