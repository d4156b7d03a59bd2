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
import { periodLabel, useGetAllClassesQuery, useJoinClassDirectMutation, type BrowseClass } from '../classes';
import { useGetStudentClassesQuery } from '../student';
import { useAuth } from '../../session/useAuth';
import type { User } from '../../session/user';

/** Why the list is empty: it holds only the classes of the student's own school or district. */
function emptyReason(user: User | null): string {
  if (user?.accountType === 'individual')
    return 'Classes you can browse come from your school district. Ask your teacher for a class code.';
  const where = user?.accountType === 'school' ? 'your school' : 'your school district';
  return `No class in ${where} is open to join right now. Ask your teacher for a class code.`;
}

/** A count, or '—' while the calls it comes from are still loading (never a misleading 0). */
function Stat({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Col>
      <Card className="shadow-sm h-100">
        <Card.Body>
          <div className="small text-body-secondary">{label}</div>
          <div className="fs-3 fw-bold" data-testid={`stat-${label}`}>
            {value ?? '—'}
          </div>
        </Card.Body>
      </Card>
    </Col>
  );
}

export function BrowseClassesPage() {
  const { user } = useAuth();
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
      toast({ title: 'Success', description: `You've joined ${result.className || cls.name}!` });
      navigate('/');
    } catch (error) {
      toast({
        title: 'Failed to Join Class',
        description: serverMessageOr(error, 'Something went wrong'),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Link to="/" className="link-secondary text-decoration-none">
        ← Back to Dashboard
      </Link>
      <h1 className="h2 mt-3 mb-1">Browse Classes</h1>
      <p className="text-body-secondary mb-4">Find a class of your school and join it</p>

      <Row xs={1} sm={3} className="g-3 mb-4">
        <Stat label="Available Classes" value={loading ? undefined : available.length} />
        <Stat label="Classes Joined" value={enrolments.data?.length} />
        <Stat label="Teachers" value={loading ? undefined : teachers} />
      </Row>

      {loading ? (
        <PageSpinner />
      ) : all.error ? (
        <Alert variant="danger">{serverMessageOr(all.error, 'Failed to load classes')}</Alert>
      ) : available.length === 0 ? (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h2 className="h4">No Classes Available</h2>
            <p className="text-body-secondary mb-4">{emptyReason(user)}</p>
            <Link to="/join-class" className="btn btn-primary">
              Use Class Code Instead
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
                      {periodLabel(cls.period) && <span>{periodLabel(cls.period)}</span>}
                    </div>
                    <div className="small mb-1">Teacher: {cls.teacherName || 'Unknown'}</div>
                    <div className="small text-body-secondary mb-3">
                      {cls.studentCount} {cls.studentCount === 1 ? 'student' : 'students'} enrolled
                    </div>
                    <Button
                      className="mt-auto"
                      disabled={joinState.isLoading}
                      aria-label={`Join Class ${cls.name}`}
                      onClick={() => void join(cls)}
                    >
                      {joining ? 'Joining...' : 'Join Class'}
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
