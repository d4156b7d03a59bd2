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
import { formatDate } from '../../i18n/format';

/** Where the admin manages things: the pages that exist in an admin's navigation. */
const MANAGEMENT_LINKS = [
  { to: '/admin/users', label: 'Manage Users' },
  { to: '/classes', label: 'Manage Classes' },
  { to: '/assessments', label: 'Manage Assessments' },
  { to: '/students', label: 'View All Students' },
  { to: '/reports', label: 'View Reports' },
] as const;

const ROLE_BADGES: Record<string, { label: string; bg: string }> = {
  admin: { label: 'Admin', bg: 'danger' },
  teacher: { label: 'Teacher', bg: 'primary' },
  student: { label: 'Student', bg: 'success' },
};

export function formatSignupDate(date: string): string {
  const d = new Date(date);
  if (Number.isNaN(d.getTime())) return '—';
  return formatDate(d, { year: 'numeric', month: 'short', day: 'numeric' });
}

function PerformanceCard({ stats }: { stats: AdminStats }) {
  const { below, at, above } = stats.levels;
  const total = below + at + above;
  const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 100));
  const levels = [
    { label: 'Above Standard', count: above, tone: 'success' },
    { label: 'At Standard', count: at, tone: 'warning' },
    { label: 'Below Standard', count: below, tone: 'danger' },
  ];
  return (
    <Card className="shadow-sm h-100">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Performance
        </Card.Title>
        <div className="mb-3">
          <span className="small text-body-secondary me-2">Average Score</span>
          <span className="fs-4 fw-bold" data-testid="admin-average-score">
            {stats.totalResponses === 0 ? '—' : `${Math.round(stats.averageScore)}%`}
          </span>
        </div>
        <ul className="list-unstyled mb-0">
          {levels.map((l) => (
            <li key={l.label} className="d-flex justify-content-between mb-1" data-testid={`admin-level-${l.label}`}>
              <span>
                <span aria-hidden="true" className={`text-${l.tone} me-2`}>
                  ●
                </span>
                {l.label}
              </span>
              <span>
                {l.count} ({share(l.count)}%)
              </span>
            </li>
          ))}
        </ul>
      </Card.Body>
    </Card>
  );
}

function RecentSignups({ signups }: { signups: AdminStats['recentSignups'] }) {
  return (
    <Card className="shadow-sm h-100">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Recent Signups
        </Card.Title>
        {signups.length === 0 ? (
          <p className="text-body-secondary mb-0">No sign-ups yet.</p>
        ) : (
          <ListGroup as="ul" variant="flush" aria-label="Recent signups">
            {signups.map((s) => {
              const badge = ROLE_BADGES[s.role] ?? { label: s.role, bg: 'secondary' };
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
  const { user } = useAuth();
  const { data: stats, isLoading, error } = useGetAdminStatsQuery();
  const scope = user?.accountType === 'school' ? 'school' : 'district';

  return (
    <>
      <h1 className="h2 mb-1">Admin Dashboard</h1>
      <p className="text-body-secondary mb-4">An overview of your {scope}</p>
      {isLoading ? (
        <PageSpinner />
      ) : error || !stats ? (
        <Alert variant="danger">{serverMessageOr(error, 'Failed to load admin statistics')}</Alert>
      ) : (
        <>
          <Row xs={2} md={3} xl={6} className="g-3 mb-4">
            <StatCard label="Total Users" testId="admin-stat-Total Users" value={String(stats.totalUsers)} />
            <StatCard label="Teachers" testId="admin-stat-Teachers" value={String(stats.totalTeachers)} />
            <StatCard label="Students" testId="admin-stat-Students" value={String(stats.totalStudents)} />
            <StatCard label="Classes" testId="admin-stat-Classes" value={String(stats.totalClasses)} />
            <StatCard label="Assessments" testId="admin-stat-Assessments" value={String(stats.totalAssessments)} />
            <StatCard label="Responses" testId="admin-stat-Responses" value={String(stats.totalResponses)} />
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
          Free Trial
        </Alert.Heading>
        <p className="mb-1">Free trial users get 10 checkpoints.</p>
        <p className="mb-0 small">
          Teachers who sign up with an email outside your {scope}&apos;s domains get their own space on the Free Trial:
          up to 3 classes and 50 students in total. Teachers of your {scope} have no such limits.
        </p>
      </Alert>
      <Row xs={1} lg={2} className="g-4">
        <Col>
          <Card className="shadow-sm h-100">
            <Card.Body>
              <Card.Title as="h2" className="h5">
                System Management
              </Card.Title>
              <div className="d-flex flex-wrap gap-2">
                {MANAGEMENT_LINKS.map((l) => (
                  <Link key={l.to} to={l.to} className="btn btn-outline-primary">
                    {l.label}
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
                  Email Notifications
                </Card.Title>
                <Badge bg="success">Digest</Badge>
              </div>
              <p className="mb-1">
                Each user gets at most one digest email per period (hourly by default) with what their Settings switches
                ask for.
              </p>
              <ul className="small text-body-secondary mb-0">
                <li>Student Submissions (teachers, on by default): new submissions in their classes.</li>
                <li>Email Notifications: teachers hear of students who joined; students of new assessments.</li>
                <li>Assessment Reminders (students): assessments due within 24 hours, once each.</li>
              </ul>
            </Card.Body>
          </Card>
        </Col>
      </Row>
    </>
  );
}
