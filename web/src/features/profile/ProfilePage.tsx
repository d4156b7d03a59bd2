// /profile; statistics are counts from the services, '—' when one is not there.
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { UserAvatar } from '../../components/UserAvatar';
import { useToast } from '../../components/toast/useToast';
import { useGetAssessmentsQuery } from '../assessments';
import { useAuth } from '../../session/useAuth';
import { fullName, navRole } from '../../session/user';
import { useGetClassesQuery } from '../classes';
import { useGetStudentClassesQuery, useGetStudentResultsQuery } from '../student';
import { ChangePasswordButton } from './ChangePasswordButton';
import { LanguageSetting } from './LanguageSetting';
import { isQuietStatError, statValue } from './statValue';
import { formatDate } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

export function formatJoined(createdAt: string): string {
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return '—';
  return formatDate(date, { year: 'numeric', month: 'long', day: 'numeric' });
}

function useStatErrorToast(...errors: unknown[]) {
  const toast = useToast();
  const { t } = useTranslation('common');
  const loud = errors.find((error) => error !== undefined && !isQuietStatError(error));
  useEffect(() => {
    if (loud) {
      toast({
        title: t('toast.error'),
        description: serverMessageOr(loud, t('profile.statsFailed')),
        variant: 'destructive',
      });
    }
  }, [loud, toast, t]);
}

function Stat({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <Col>
      <div className="border rounded p-3 text-center h-100">
        <div className="fs-3 fw-bold" data-testid={`stat-${id}`}>
          {value}
        </div>
        <div className="text-body-secondary small">{label}</div>
      </div>
    </Col>
  );
}

function StatsCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="shadow-sm">
      <Card.Body>
        <Card.Title as="h2" className="h5 mb-3">
          {title}
        </Card.Title>
        <Row xs={2} className="g-3">
          {children}
        </Row>
      </Card.Body>
    </Card>
  );
}

function TeacherStats() {
  const classes = useGetClassesQuery();
  const assessments = useGetAssessmentsQuery();
  useStatErrorToast(classes.error, assessments.error);
  const { t } = useTranslation('common');
  return (
    <StatsCard title={t('profile.teachingStats')}>
      <Stat id="Classes" label={t('profile.classes')} value={statValue(classes)} />
      <Stat id="Assessments" label={t('profile.assessments')} value={statValue(assessments)} />
    </StatsCard>
  );
}

function StudentStats() {
  const classes = useGetStudentClassesQuery();
  const results = useGetStudentResultsQuery();
  useStatErrorToast(classes.error, results.error);
  const { t } = useTranslation('common');
  return (
    <StatsCard title={t('profile.learningStats')}>
      <Stat id="Classes" label={t('profile.classes')} value={statValue(classes)} />
      <Stat id="Assessments Taken" label={t('profile.assessmentsTaken')} value={statValue(results)} />
    </StatsCard>
  );
}

export function ProfilePage() {
  const { user } = useAuth();
  const { t } = useTranslation('common');
  if (!user) return <PageSpinner />;
  const student = navRole(user) === 'student';
  return (
    <>
      <h1 className="h2 mb-4">{t('profile.title')}</h1>
      <Row className="g-4">
        <Col lg={7}>
          <Card className="shadow-sm">
            <Card.Body className="p-4">
              <div className="d-flex align-items-center gap-3 mb-4">
                <UserAvatar user={user} size={72} initialsOnly />
                <div>
                  <h2 className="h4 mb-1">{fullName(user)}</h2>
                  <Badge bg={student ? 'success' : 'primary'}>{student ? t('role.student') : t('role.teacher')}</Badge>
                </div>
              </div>
              <dl className="row mb-4">
                <dt className="col-sm-4">{t('profile.email')}</dt>
                <dd className="col-sm-8">{user.email}</dd>
                <dt className="col-sm-4">{t('profile.joined')}</dt>
                <dd className="col-sm-8">{formatJoined(user.createdAt)}</dd>
                <dt className="col-sm-4">{t('profile.accountType')}</dt>
                <dd className="col-sm-8">{t(`accountType.${user.accountType}`, { defaultValue: user.accountType })}</dd>
              </dl>
              <div className="d-flex flex-wrap gap-2">
                <Link to="/settings" className="btn btn-primary">
                  {t('profile.edit')}
                </Link>
                <ChangePasswordButton />
              </div>
            </Card.Body>
          </Card>
          <LanguageSetting user={user} />
        </Col>
        <Col lg={5}>{student ? <StudentStats /> : <TeacherStats />}</Col>
      </Row>
    </>
  );
}
