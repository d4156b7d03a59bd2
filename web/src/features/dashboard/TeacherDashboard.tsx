// Teacher and admin "/" (spec §2 Teacher dashboard): the first class of the class list with its
// summary cards, Manage Students and Create Assessment; with no class the welcome card.
import { useState } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { CreateAssessmentModal } from '../assessments/CreateAssessmentModal';
import { ClassManagementModal } from '../classes/ClassManagementModal';
import { CreateClassModal } from '../classes/CreateClassModal';
import { JoinCodeBadge } from '../classes/JoinCodeBadge';
import { classSummary, periodLabel } from '../classes/classStats';
import { useGetClassesQuery, type ClassItem } from '../classes/classesApi';

function SummaryCard({ label, value, tone }: { label: string; value: string; tone?: string }) {
  return (
    <Col>
      <Card className="shadow-sm h-100">
        <Card.Body>
          <div className="small text-body-secondary">{label}</div>
          <div className={`fs-3 fw-bold${tone ? ` text-${tone}` : ''}`} data-testid={`summary-${label}`}>
            {value}
          </div>
        </Card.Body>
      </Card>
    </Col>
  );
}

function ClassOverview({ cls }: { cls: ClassItem }) {
  const summary = classSummary(cls);
  const period = periodLabel(cls.period);
  return (
    <>
      <Row xs={1} sm={2} lg={4} className="g-3 mb-4">
        <SummaryCard label="Total Students" value={String(summary.totalStudents)} />
        <SummaryCard label="Students At Standard" value={String(summary.atStandard)} tone="warning" />
        <SummaryCard label="Above Standard" value={`${summary.abovePercent}%`} tone="success" />
        <SummaryCard label="Need Support" value={`${summary.needSupportPercent}%`} tone="danger" />
      </Row>
      <Card className="shadow-sm">
        <Card.Body className="d-flex flex-wrap align-items-center gap-3">
          <div className="flex-grow-1">
            <h2 className="h5 mb-1">{cls.name}</h2>
            <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary">
              <Badge bg="primary-subtle" text="primary-emphasis">
                {cls.subject}
              </Badge>
              {period && <span>{period}</span>}
              <span>
                {cls.studentCount} {cls.studentCount === 1 ? 'student' : 'students'}
              </span>
              <span>
                {cls.assessmentCount} {cls.assessmentCount === 1 ? 'assessment' : 'assessments'}
              </span>
            </div>
          </div>
          <span className="d-inline-flex align-items-center gap-2 small text-body-secondary">
            Join Code: <JoinCodeBadge code={cls.joinCode} />
          </span>
          <Link to={`/class/${cls.id}`} className="btn btn-outline-primary btn-sm">
            View Details
          </Link>
        </Card.Body>
      </Card>
    </>
  );
}

export function TeacherDashboard() {
  const { data: classes, isLoading, error } = useGetClassesQuery();
  const [creatingClass, setCreatingClass] = useState(false);
  const [managing, setManaging] = useState(false);
  const [creatingAssessment, setCreatingAssessment] = useState(false);
  const first = classes?.[0];

  return (
    <>
      <div className="d-flex flex-wrap align-items-start gap-2 mb-4">
        <div className="flex-grow-1">
          <h1 className="h2 mb-1">Assessment Dashboard</h1>
          <p className="text-body-secondary mb-0">Track student progress across formative assessments</p>
        </div>
        {first && (
          <>
            <Link to="/classes" className="btn btn-outline-secondary">
              My Classes
            </Link>
            <Button variant="outline-primary" onClick={() => setManaging(true)}>
              Manage Students
            </Button>
            <Button onClick={() => setCreatingAssessment(true)}>Create Assessment</Button>
          </>
        )}
      </div>

      {isLoading ? (
        <PageSpinner />
      ) : error ? (
        <Alert variant="danger">{serverMessageOr(error, 'Failed to load classes')}</Alert>
      ) : first ? (
        <ClassOverview cls={first} />
      ) : (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h2 className="h4">Welcome to Checkpoint!</h2>
            <p className="text-body-secondary mb-4">Create your first class to start tracking student progress.</p>
            <div className="d-flex flex-wrap justify-content-center gap-2">
              <Button onClick={() => setCreatingClass(true)}>Create Class</Button>
              <Link to="/classes" className="btn btn-outline-secondary">
                My Classes
              </Link>
            </div>
          </Card.Body>
        </Card>
      )}

      <CreateClassModal show={creatingClass} variant="dashboard" onHide={() => setCreatingClass(false)} />
      <ClassManagementModal show={managing} onHide={() => setManaging(false)} classId={first?.id} />
      <CreateAssessmentModal
        show={creatingAssessment}
        classId={first?.id}
        onHide={() => setCreatingAssessment(false)}
      />
    </>
  );
}
