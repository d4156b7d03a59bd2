// /subscription (spec §2 Subscription & Billing, §9 plans). Static: no billing service exists.
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { PlanCard } from '../../components/PlanCard';
import { useToast } from '../../components/toast/useToast';

interface Plan {
  name: string;
  price: string;
  period: string;
  features: string[];
  popular?: boolean;
  action: 'current' | 'upgrade' | 'contact';
}

export const APP_PLANS: Plan[] = [
  {
    name: 'Free Trial',
    price: '$0',
    period: '14 days',
    features: ['Up to 3 classes', '50 students total', 'Basic AI assessments'],
    action: 'current',
  },
  {
    name: 'Professional',
    price: '$29',
    period: '/month',
    popular: true,
    features: ['Unlimited classes and students', 'Advanced AI assessments', 'Detailed analytics', 'Priority support'],
    action: 'upgrade',
  },
  {
    name: 'School',
    price: '$99',
    period: '/month',
    features: ['Everything in Pro', 'Multi-teacher', 'Admin dashboard', 'Custom integrations', 'Dedicated support'],
    action: 'contact',
  },
];

export function SubscriptionPage() {
  const toast = useToast();
  const upgrade = () =>
    toast({
      title: 'Upgrade Available',
      description: 'Professional plan features coming soon! Contact support for early access.',
    });

  return (
    <>
      <h1 className="h2 mb-1">Subscription &amp; Billing</h1>
      <p className="text-body-secondary mb-4">Manage your plan</p>
      <Card className="shadow-sm mb-4">
        <Card.Body className="d-flex flex-wrap justify-content-between align-items-center gap-3">
          <div>
            <div className="text-body-secondary small">Current Plan</div>
            <div className="h4 mb-0">Free Trial</div>
            <div className="text-body-secondary">14 days remaining</div>
          </div>
          <div>
            <div className="text-body-secondary small mb-1">Plan limits</div>
            <ul className="list-unstyled mb-0 small">
              <li>Classes: up to 3</li>
              <li>Students: 50 total</li>
              <li>Assessments: unlimited</li>
            </ul>
          </div>
          <Button onClick={upgrade}>Upgrade Plan</Button>
        </Card.Body>
      </Card>
      <Row xs={1} md={3} className="g-4">
        {APP_PLANS.map((plan) => (
          <Col key={plan.name}>
            <PlanCard
              name={plan.name}
              price={plan.price}
              period={plan.period}
              features={plan.features}
              popular={plan.popular}
              headingAs="h2"
            >
              {plan.action === 'current' && (
                <Button variant="outline-secondary" disabled>
                  Current Plan
                </Button>
              )}
              {plan.action === 'upgrade' && <Button onClick={upgrade}>Upgrade</Button>}
              {plan.action === 'contact' && (
                <Button variant="outline-primary" onClick={upgrade}>
                  Contact Sales
                </Button>
              )}
            </PlanCard>
          </Col>
        ))}
      </Row>
    </>
  );
}
