// /admin, the admin dashboard: the district's figures (GET /api/admin/stats), the free-trial
// note, system management links, what the email notifications do and the recent sign-ups.
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useAuth } from '../../session/useAuth';
import { useGetAdminStatsQuery, type AdminStats } from '../results';
import { StatCard } from '../../components/StatCard';
import { formatDate, formatPercent } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

/** Where the admin manages things: the pages that exist in an admin's navigation. */
const MANAGEMENT_LINKS = [
  { to: '/admin/users', label: 'manageUsers' },
  { to: '/classes', label: 'manageClasses' },
  { to: '/assessments', label: 'manageAssessments' },
  { to: '/students', label: 'viewStudents' },
  { to: '/reports', label: 'viewReports' },
] as const;

/** Each role's badge colour; its name is common:role.<role>. */
const ROLE_BADGES: Record<string, string> = {
  admin: 'danger',
  teacher: 'primary',
  student: 'success',
};

export function formatSignupDate(date: string): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '—';
  return formatDate(d, { year: 'numeric', month: 'short', day: 'numeric' });
}

function PerformanceCard({ stats }: { stats: AdminStats }) {
  const { t } = useTranslation('admin');
  const { below, at, above } = stats.levels;
  const total = below + at + above;
  const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 100));
  const levels = [
    { label: 'Above Standard', text: t('common:label.Above_Standard'), count: above, tone: 'success' },
    { label: 'At Standard', text: t('common:label.At_Standard'), count: at, tone: 'warning' },
    { label: 'Below Standard', text: t('common:label.Below_Standard'), count: below, tone: 'danger' },
  ];
  return (
    <Card className="shadow-sm h-100">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('dashboard.performance')}
        </Card.Title>
        <div className="mb-3">
          <span className="small text-body-secondary me-2">{t('dashboard.averageScore')}</span>
          <span className="fs-4 fw-bold" data-testid="admin-average-score">
            {stats.totalResponses === 0 ? '—' : formatPercent(Math.round(stats.averageScore))}
          </span>
        </div>
        <ul className="list-unstyled mb-0">
          {levels.map((l) => (
            <li key={l.label} className="d-flex justify-content-between mb-1" data-testid={`admin-level-${l.label}`}>
              <span>
                <span aria-hidden="true" className={`text-${l.tone} me-2`}>
                  ●
                </span>
                {l.text}
              </span>
              <span>
                {l.count} ({formatPercent(share(l.count))})
              </span>
            </li>
          ))}
        </ul>
      </Card.Body>
    </Card>
  );
}

function RecentSignups({ signups }: { signups: AdminStats['recentSignups'] }) {
  const { t } = useTranslation('admin');
  return (
    <Card className="shadow-sm h-100">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('dashboard.recentSignups')}
        </Card.Title>
        {signups.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('dashboard.noSignups')}</p>
        ) : (
          <ListGroup as="ul" variant="flush" aria-label={t('dashboard.recentSignupsList')}>
            {signups.map((s) => {
              const bg = ROLE_BADGES[s.role];
              const badge = bg ? { label: t(`common:role.${s.role}`), bg } : { label: s.role, bg: 'secondary' };
              return (
                <ListGroup.Item
                  as="li"
                  key={`${s.email}-${s.date}`}
                  className="d-flex flex-wrap justify-content-between align-items-center gap-2 px-0"
                >
                  <div>
                    <div className="fw-semibold">{s.name}</div>
                    <div className="small text-body-secondary">{s.email}</div>
                  </div>
                  <div className="d-flex align-items-center gap-2">
                    <Badge bg={badge.bg}>{badge.label}</Badge>
                    <span className="small text-body-secondary">{formatSignupDate(s.date)}</span>
                  </div>
                </ListGroup.Item>
              );
            })}
          </ListGroup>
        )}
      </Card.Body>
    </Card>
  );
}

export function AdminDashboardPage() {
  const { t } = useTranslation('admin');
  const { user } = useAuth();
  const { data: stats, isLoading, error } = useGetAdminStatsQuery();
  const scope = user?.accountType === 'school' ? 'school' : 'district';

  return (
    <>
      <h1 className="h2 mb-1">{t('dashboard.title')}</h1>
      <p className="text-body-secondary mb-4">{t(`dashboard.intro.${scope}`)}</p>
      {isLoading ? (
        <PageSpinner />
      ) : error || !stats ? (
        <Alert variant="danger">{serverMessageOr(error, t('dashboard.loadFailed'))}</Alert>
      ) : (
        <>
          <Row xs={2} md={3} xl={6} className="g-3 mb-4">
            <StatCard
              label={t('dashboard.stat.totalUsers')}
              testId="admin-stat-Total Users"
              value={String(stats.totalUsers)}
            />
            <StatCard
              label={t('dashboard.stat.teachers')}
              testId="admin-stat-Teachers"
              value={String(stats.totalTeachers)}
            />
            <StatCard
              label={t('dashboard.stat.students')}
              testId="admin-stat-Students"
              value={String(stats.totalStudents)}
            />
            <StatCard
              label={t('dashboard.stat.classes')}
              testId="admin-stat-Classes"
              value={String(stats.totalClasses)}
            />
            <StatCard
              label={t('dashboard.stat.assessments')}
              testId="admin-stat-Assessments"
              value={String(stats.totalAssessments)}
            />
            <StatCard
              label={t('dashboard.stat.responses')}
              testId="admin-stat-Responses"
              value={String(stats.totalResponses)}
            />
          </Row>
          <Row xs={1} lg={2} className="g-4 mb-4">
            <Col>
              <PerformanceCard stats={stats} />
            </Col>
            <Col>
              <RecentSignups signups={stats.recentSignups} />
            </Col>
          </Row>
        </>
      )}
      <Alert variant="info" className="mb-4" data-testid="free-trial-note">
        <Alert.Heading as="h2" className="h6">
          {t('dashboard.freeTrial.title')}
        </Alert.Heading>
        <p className="mb-1">{t('dashboard.freeTrial.checkpoints')}</p>
        <p className="mb-0 small">{t(`dashboard.freeTrial.outside.${scope}`)}</p>
      </Alert>
      <Row xs={1} lg={2} className="g-4">
        <Col>
          <Card className="shadow-sm h-100">
            <Card.Body>
              <Card.Title as="h2" className="h5">
                {t('dashboard.management')}
              </Card.Title>
              <div className="d-flex flex-wrap gap-2">
                {MANAGEMENT_LINKS.map((l) => (
                  <Link key={l.to} to={l.to} className="btn btn-outline-primary">
                    {t(`dashboard.links.${l.label}`)}
                  </Link>
                ))}
              </div>
            </Card.Body>
          </Card>
        </Col>
        <Col>
          <Card className="shadow-sm h-100" data-testid="email-status">
            <Card.Body>
              <div className="d-flex justify-content-between align-items-start mb-2">
                <Card.Title as="h2" className="h5 mb-0">
                  {t('dashboard.email.title')}
                </Card.Title>
                <Badge bg="success">{t('dashboard.email.digest')}</Badge>
              </div>
              <p className="mb-1">{t('dashboard.email.text')}</p>
              <ul className="small text-body-secondary mb-0">
                <li>{t('dashboard.email.submissions')}</li>
                <li>{t('dashboard.email.notifications')}</li>
                <li>{t('dashboard.email.reminders')}</li>
              </ul>
            </Card.Body>
          </Card>
        </Col>
      </Row>
    </>
  );
}
