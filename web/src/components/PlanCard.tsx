// One pricing plan as a card: name (with "Most Popular"), price and period, the feature list and
// the plan's action (children). Used by the landing page and Subscription.
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';

export interface PlanCardProps {
  name: string;
  price: string;
  period: string;
  features: string[];
  popular?: boolean | undefined;
  /** Heading level of the plan name within its page. */
  headingAs: 'h2' | 'h3';
  /** A line under the price (e.g. "Save 17%"). */
  note?: string | undefined;
  /** The badge of the popular plan, in the page's language (the landing page's is English). */
  popularLabel?: string | undefined;
  children: ReactNode;
}

export function PlanCard({
  name,
  price,
  period,
  features,
  popular,
  headingAs,
  note,
  popularLabel = 'Most Popular',
  children,
}: PlanCardProps) {
  return (
    <Card className={`h-100 shadow-sm ${popular ? 'border-primary border-2' : ''}`}>
      <Card.Body className="d-flex flex-column">
        <div className="d-flex justify-content-between align-items-start mb-2">
          <Card.Title as={headingAs} className="h5 mb-0">
            {name}
          </Card.Title>
          {popular && <Badge bg="primary">{popularLabel}</Badge>}
        </div>
        <p className="mb-1">
          <span className="display-6 fw-bold">{price}</span> <span className="text-body-secondary">{period}</span>
        </p>
        {note && <p className="small text-success mb-2">{note}</p>}
        <ul className="list-unstyled my-3 flex-grow-1">
          {features.map((feature) => (
            <li key={feature} className="mb-1">
              <span aria-hidden="true" className="text-success me-2">
                ✓
              </span>
              {feature}
            </li>
          ))}
        </ul>
        {children}
      </Card.Body>
    </Card>
  );
}
