// /subscription, Subscription & Billing. Plans are static (no billing service
// exists); the usage panel shows the caller's real counts (GET /api/dashboard/usage) against the
// Free Trial limits the class service enforces on teachers with their own (individual) account.
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import ProgressBar from 'react-bootstrap/ProgressBar';
import Row from 'react-bootstrap/Row';
import { PlanCard } from '../../components/PlanCard';
import { useToast } from '../../components/toast/useToast';
import { useAuth } from '../../session/useAuth';
import { navRole, type User } from '../../session/user';
import { useGetUsageQuery, type Usage } from '../results';

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

/** Free Trial: up to 3 classes, 50 students total, assessments unlimited. */
export const FREE_TRIAL_LIMITS = { classes: 3, students: 50 } as const;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const remaining = (used: number, limit: number) => `${Math.max(0, limit - used)} remaining`;

/** The usage lines; with `limited` the Free Trial's remaining places, else unlimited. */
export function usageLines(usage: Usage, limited: boolean) {
  return [
    {
      key: 'classes',
      text: `${count(usage.classes, 'class', 'classes')} created (${limited ? remaining(usage.classes, FREE_TRIAL_LIMITS.classes) : 'unlimited'})`,
      limit: limited ? FREE_TRIAL_LIMITS.classes : undefined,
      used: usage.classes,
    },
    {
      key: 'students',
      text: `${count(usage.students, 'student', 'students')} (${limited ? remaining(usage.students, FREE_TRIAL_LIMITS.students) : 'unlimited'})`,
      limit: limited ? FREE_TRIAL_LIMITS.students : undefined,
      used: usage.students,
    },
    {
      key: 'assessments',
      text: `${count(usage.assessments, 'assessment', 'assessments')} (unlimited)`,
      limit: undefined,
      used: usage.assessments,
    },
  ];
}

/** District and school accounts are on their organisation's plan; an individual's own space on the Free Trial. */
function currentPlan(accountType: User['accountType'] | undefined) {
  if (accountType === 'district') return { name: 'District Plan', note: 'Provided by your district' };
  if (accountType === 'school') return { name: 'School Plan', note: 'Provided by your school' };
  return { name: 'Free Trial', note: '14 days remaining' };
}

function UsagePanel({ limited }: { limited: boolean }) {
  const { data: usage, error } = useGetUsageQuery();
  return (
    <section aria-labelledby="usage-heading" className="flex-grow-1" style={{ maxWidth: '22rem' }}>
      <h2 id="usage-heading" className="text-body-secondary small fw-normal mb-1">
        Usage
      </h2>
      {usage ? (
        <ul className="list-unstyled mb-0 small">
          {usageLines(usage, limited).map((line) => (
            <li key={line.key} className="mb-1">
              <span data-testid={`usage-${line.key}`}>{line.text}</span>
              {line.limit !== undefined && (
                <ProgressBar
                  now={Math.min(line.used, line.limit)}
                  max={line.limit}
                  variant={line.used >= line.limit ? 'danger' : 'primary'}
                  style={{ height: '0.4rem' }}
                  // The line above says it in words.
                  aria-hidden="true"
                  data-testid={`usage-${line.key}-bar`}
                />
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="small text-body-secondary mb-0" data-testid="usage-unavailable">
          {error ? 'Usage is not available right now.' : 'Loading usage…'}
        </p>
      )}
    </section>
  );
}

export function SubscriptionPage() {
  const toast = useToast();
  const { user } = useAuth();
  const current = currentPlan(user?.accountType);
  const onFreeTrial = current.name === 'Free Trial';
  // Usage counts a teacher's classes and students; a student has none to count.
  const showUsage = user !== null && navRole(user) !== 'student';
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
            <div className="h4 mb-0">{current.name}</div>
            <div className="text-body-secondary">{current.note}</div>
          </div>
          {showUsage && <UsagePanel limited={onFreeTrial} />}
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
              {plan.action === 'current' && onFreeTrial && (
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
