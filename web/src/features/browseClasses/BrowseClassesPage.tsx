// /browse-classes: every class to join with a click; a failure toasts 'Failed to Join Class'.
import { Link, useNavigate } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import { useGetAllClassesQuery, useJoinClassDirectMutation, type BrowseClass } from '../classes';
import { useGetStudentClassesQuery } from '../student';
import { useAuth } from '../../session/useAuth';
import type { User } from '../../session/user';
import { useTranslation } from '../../i18n/react';
import { i18n } from '../../i18n/i18n';

/** Why the list is empty: it holds only the classes of the student's own school or district. */
function emptyReason(user: User | null): string {
  if (user?.accountType === 'individual') return i18n.t('student:browse.emptyIndividual');
  return i18n.t(user?.accountType === 'school' ? 'student:browse.emptySchool' : 'student:browse.emptyDistrict');
}

/** A count, or '—' while the calls it comes from are still loading (never a misleading 0). */
function Stat({ id, label, value }: { id: string; label: string; value: number | undefined }) {
  return (
    <Col>
      <Card className="shadow-sm h-100">
        <Card.Body>
          <div className="small text-body-secondary">{label}</div>
          <div className="fs-3 fw-bold" data-testid={`stat-${id}`}>
            {value ?? '—'}
          </div>
        </Card.Body>
      </Card>
    </Col>
  );
}

export function BrowseClassesPage() {
  const { user } = useAuth();
  const { t } = useTranslation('student');
  const all = useGetAllClassesQuery();
  const enrolments = useGetStudentClassesQuery();
  const [joinDirect, joinState] = useJoinClassDirectMutation();
  const toast = useToast();
  const navigate = useNavigate();

  // Both lists are needed to know which classes are still joinable.
  const loading = all.isLoading || enrolments.isLoading;
  const joinedIds = new Set((enrolments.data ?? []).map((e) => e.classId));
  const available = (all.data ?? []).filter((c) => !joinedIds.has(c.id));
  const teachers = new Set(available.map((c) => c.teacherId)).size;

  const join = async (cls: BrowseClass) => {
    try {
      const result = await joinDirect(cls.id).unwrap();
      toast({
        title: t('common:join.success'),
        description: t('common:join.joined', { name: result.className || cls.name }),
      });
      navigate('/');
    } catch (error) {
      toast({
        title: t('browse.joinFailed'),
        description: serverMessageOr(error, t('browse.wrong')),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Link to="/" className="link-secondary text-decoration-none">
        ← {t('browse.back')}
      </Link>
      <h1 className="h2 mt-3 mb-1">{t('browse.title')}</h1>
      <p className="text-body-secondary mb-4">{t('browse.intro')}</p>

      <Row xs={1} sm={3} className="g-3 mb-4">
        <Stat id="Available Classes" label={t('browse.available')} value={loading ? undefined : available.length} />
        <Stat id="Classes Joined" label={t('browse.joined')} value={enrolments.data?.length} />
        <Stat id="Teachers" label={t('browse.teachers')} value={loading ? undefined : teachers} />
      </Row>

      {loading ? (
        <PageSpinner />
      ) : all.error ? (
        <Alert variant="danger">{serverMessageOr(all.error, t('browse.loadFailed'))}</Alert>
      ) : available.length === 0 ? (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h2 className="h4">{t('browse.none')}</h2>
            <p className="text-body-secondary mb-4">{emptyReason(user)}</p>
            <Link to="/join-class" className="btn btn-primary">
              {t('browse.useCode')}
            </Link>
          </Card.Body>
        </Card>
      ) : (
        <Row xs={1} md={2} lg={3} className="g-4">
          {available.map((cls) => {
            const joining = joinState.isLoading && joinState.originalArgs === cls.id;
            return (
              <Col key={cls.id}>
                <Card className="shadow-sm h-100" as="article" aria-label={cls.name}>
                  <Card.Body className="d-flex flex-column">
                    <Card.Title as="h2" className="h5 mb-1">
                      {cls.name}
                    </Card.Title>
                    <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary mb-3">
                      <Badge bg="primary-subtle" text="primary-emphasis">
                        {cls.subject}
                      </Badge>
                      {cls.period && <span>{t('period', { period: cls.period })}</span>}
                    </div>
                    <div className="small mb-1">
                      {t('myClasses.teacher', { name: cls.teacherName || t('myClasses.unknown') })}
                    </div>
                    <div className="small text-body-secondary mb-3">
                      {cls.studentCount} {cls.studentCount === 1 ? 'student' : 'students'} enrolled
                    </div>
                    <Button
                      className="mt-auto"
                      disabled={joinState.isLoading}
                      aria-label={`Join Class ${cls.name}`}
                      onClick={() => void join(cls)}
                    >
                      {joining ? t('browse.joining') : t('common:join.submit')}
                    </Button>
                  </Card.Body>
                </Card>
              </Col>
            );
          })}
        </Row>
      )}
    </>
  );
}
