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
import { useTranslation } from '../../i18n/react';
import type { TFunction } from '../../i18n/i18n';

/** A plan: its name, period and features are keys under subscription.plan.<id> (teacher namespace). */
interface Plan {
  id: 'freeTrial' | 'professional' | 'school';
  price: string;
  period: 'days14' | 'month';
  features: string[];
  popular?: boolean;
  action: 'current' | 'upgrade' | 'contact';
}

export const APP_PLANS: Plan[] = [
  {
    id: 'freeTrial',
    price: '$0',
    period: 'days14',
    features: ['classes3', 'students50', 'basicAi'],
    action: 'current',
  },
  {
    id: 'professional',
    price: '$29',
    period: 'month',
    popular: true,
    features: ['unlimited', 'advancedAi', 'analytics', 'prioritySupport'],
    action: 'upgrade',
  },
  {
    id: 'school',
    price: '$99',
    period: 'month',
    features: ['everythingInPro', 'multiTeacher', 'adminDashboard', 'integrations', 'dedicatedSupport'],
    action: 'contact',
  },
];

/** Free Trial: up to 3 classes, 50 students total, assessments unlimited. */
export const FREE_TRIAL_LIMITS = { classes: 3, students: 50 } as const;

/** The usage lines, in the interface's language; with `limited` the Free Trial's remaining places, else unlimited. */
export function usageLines(usage: Usage, limited: boolean, t: TFunction) {
  const left = (used: number, limit: number) =>
    limited
      ? t('subscription.usage.remaining', { count: Math.max(0, limit - used) })
      : t('subscription.usage.unlimited');
  return [
    {
      key: 'classes',
      text: t('subscription.usage.classes', {
        count: usage.classes,
        left: left(usage.classes, FREE_TRIAL_LIMITS.classes),
      }),
      limit: limited ? FREE_TRIAL_LIMITS.classes : undefined,
      used: usage.classes,
    },
    {
      key: 'students',
      text: t('subscription.usage.students', {
        count: usage.students,
        left: left(usage.students, FREE_TRIAL_LIMITS.students),
      }),
      limit: limited ? FREE_TRIAL_LIMITS.students : undefined,
      used: usage.students,
    },
    {
      key: 'assessments',
      text: t('subscription.usage.assessments', { count: usage.assessments, left: t('subscription.usage.unlimited') }),
      limit: undefined,
      used: usage.assessments,
    },
  ];
}

/** District and school accounts are on their organisation's plan; an individual's own space on the Free Trial. */
function currentPlan(accountType: User['accountType'] | undefined): { id: 'district' | 'school' | 'freeTrial' } {
  if (accountType === 'district') return { id: 'district' };
  if (accountType === 'school') return { id: 'school' };
  return { id: 'freeTrial' };
}

function UsagePanel({ limited }: { limited: boolean }) {
  const { data: usage, error } = useGetUsageQuery();
  const { t } = useTranslation('teacher');
  return (
    <section aria-labelledby="usage-heading" className="flex-grow-1" style={{ maxWidth: '22rem' }}>
      <h2 id="usage-heading" className="text-body-secondary small fw-normal mb-1">
        {t('subscription.usage.title')}
      </h2>
      {usage ? (
        <ul className="list-unstyled mb-0 small">
          {usageLines(usage, limited, t).map((line) => (
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
          {error ? t('subscription.usage.unavailable') : t('subscription.usage.loading')}
        </p>
      )}
    </section>
  );
}

export function SubscriptionPage() {
  const toast = useToast();
  const { user } = useAuth();
  const { t } = useTranslation('teacher');
  const current = currentPlan(user?.accountType);
  const onFreeTrial = current.id === 'freeTrial';
  // Usage counts a teacher's classes and students; a student has none to count.
  const showUsage = user !== null && navRole(user) !== 'student';
  const upgrade = () =>
    toast({
      title: t('subscription.upgradeTitle'),
      description: t('subscription.upgradeText'),
    });

  return (
    <>
      <h1 className="h2 mb-1">{t('subscription.title')}</h1>
      <p className="text-body-secondary mb-4">{t('subscription.intro')}</p>
      <Card className="shadow-sm mb-4">
        <Card.Body className="d-flex flex-wrap justify-content-between align-items-center gap-3">
          <div>
            <div className="text-body-secondary small">{t('subscription.currentPlan')}</div>
            <div className="h4 mb-0">{t(`subscription.current.${current.id}.name`)}</div>
            <div className="text-body-secondary">{t(`subscription.current.${current.id}.note`)}</div>
          </div>
          {showUsage && <UsagePanel limited={onFreeTrial} />}
          <Button onClick={upgrade}>{t('subscription.upgradePlan')}</Button>
        </Card.Body>
      </Card>
      <Row xs={1} md={3} className="g-4">
        {APP_PLANS.map((plan) => (
          <Col key={plan.id}>
            <PlanCard
              name={t(`subscription.plan.${plan.id}.name`)}
              price={plan.price}
              period={t(`subscription.period.${plan.period}`)}
              features={plan.features.map((f) => t(`subscription.plan.${plan.id}.${f}`))}
              popular={plan.popular}
              popularLabel={t('subscription.popular')}
              headingAs="h2"
            >
              {plan.action === 'current' && onFreeTrial && (
                <Button variant="outline-secondary" disabled>
                  {t('subscription.currentPlan')}
                </Button>
              )}
              {plan.action === 'upgrade' && <Button onClick={upgrade}>{t('subscription.upgrade')}</Button>}
              {plan.action === 'contact' && (
                <Button variant="outline-primary" onClick={upgrade}>
                  {t('subscription.contactSales')}
                </Button>
              )}
            </PlanCard>
          </Col>
        ))}
      </Row>
    </>
  );
}
