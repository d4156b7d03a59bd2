// Teacher and admin "/": one class of the class list (the first unless the
// teacher picks another; the choice is kept in ?classId= so a reload keeps it) with its summary cards,
// results panel, Manage Students and Create Assessment; with no class the welcome card.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import {
  JoinCodeBadge,
  assessedShare,
  classSummary,
  periodLabel,
  useGetClassesQuery,
  type ClassItem,
  ClassPicker,
  loadClassManagementModal,
  loadCreateClassModal,
} from '../classes';
import { loadCreateAssessmentModal } from '../assessments';
import { ClassResultsPanel } from '../results';
import { StatCard } from '../../components/StatCard';
import { lazyModal } from '../../app/lazyModal';
import { useTranslation } from '../../i18n/react';

// Loaded when first opened: forms and their schemas stay out of the dashboard's first load.
const CreateAssessmentModal = lazyModal(loadCreateAssessmentModal);
const ClassManagementModal = lazyModal(loadClassManagementModal);
const CreateClassModal = lazyModal(loadCreateClassModal);

function ClassOverview({ cls }: { cls: ClassItem }) {
  const { t } = useTranslation('teacher');
  const summary = classSummary(cls);
  const period = periodLabel(cls.period, t);
  return (
    <>
      <Row xs={1} sm={2} lg={4} className="g-3 mb-4">
        {/* The test ids stay the English labels (the browser tests read them). */}
        <StatCard
          label={t('dashboard.totalStudents')}
          testId="summary-Total Students"
          value={String(summary.totalStudents)}
        />
        <StatCard
          label={t('dashboard.atStandard')}
          testId="summary-Students At Standard"
          value={String(summary.atStandard)}
          note={assessedShare(summary.atPercent, summary.assessed, t)}
          tone="warning"
        />
        {/* Every card a count of students, its share in the note: counts and percents never mixed. */}
        <StatCard
          label={t('common:label.Above_Standard')}
          testId="summary-Above Standard"
          value={String(summary.aboveStandard)}
          note={assessedShare(summary.abovePercent, summary.assessed, t)}
          tone="success"
        />
        <StatCard
          label={t('dashboard.needSupport')}
          testId="summary-Need Support"
          value={String(summary.needSupport)}
          note={assessedShare(summary.needSupportPercent, summary.assessed, t)}
          tone="danger"
        />
      </Row>
      <Card className="shadow-sm mb-4">
        <Card.Body className="d-flex flex-wrap align-items-center gap-3">
          <div className="flex-grow-1">
            <h2 className="h5 mb-1">{cls.name}</h2>
            <div className="d-flex flex-wrap align-items-center gap-2 small text-body-secondary">
              <Badge bg="primary-subtle" text="primary-emphasis">
                {cls.subject}
              </Badge>
              {period && <span>{period}</span>}
              <span>{t('dashboard.students', { count: cls.studentCount })}</span>
              <span>{t('dashboard.assessments', { count: cls.assessmentCount })}</span>
            </div>
          </div>
          <span className="d-inline-flex align-items-center gap-2 small text-body-secondary">
            {t('classPage.joinCode')} <JoinCodeBadge code={cls.joinCode} />
          </span>
          <Link to={`/class/${cls.id}`} className="btn btn-outline-primary btn-sm">
            {t('classes.card.details')}
          </Link>
        </Card.Body>
      </Card>
      <ClassResultsPanel classId={cls.id} />
    </>
  );
}

export function TeacherDashboard() {
  const { data: classes, isLoading, error } = useGetClassesQuery();
  const [creatingClass, setCreatingClass] = useState(false);
  const [managing, setManaging] = useState(false);
  const [creatingAssessment, setCreatingAssessment] = useState(false);
  const [params, setParams] = useSearchParams();
  const { t } = useTranslation('teacher');
  // Loaded with the page, not when the first class appears: the class overview's results panel
  // speaks `results`, and loading it then would suspend the page under the closing Create Class
  // dialog and lose the keyboard focus (keyboard.spec.ts).
  useTranslation('results');
  // Spec: the first class of the list unless the teacher chose another (an unknown id falls back too).
  const chosenId = params.get('classId');
  const chosen = classes?.find((c) => c.id === chosenId) ?? classes?.[0];
  const choose = (id: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('classId', id);
        return next;
      },
      { replace: true },
    );

  return (
    <>
      <div className="d-flex flex-wrap align-items-start gap-2 mb-4">
        <div className="flex-grow-1">
          <h1 className="h2 mb-1">{t('dashboard.title')}</h1>
          <p className="text-body-secondary mb-0">{t('dashboard.intro')}</p>
        </div>
        {chosen && (
          <>
            <Link to="/classes" className="btn btn-outline-secondary">
              {t('classes.title')}
            </Link>
            <Button variant="outline-primary" onClick={() => setManaging(true)}>
              {t('classPage.manageStudents')}
            </Button>
            <Button onClick={() => setCreatingAssessment(true)}>{t('classPage.createAssessment')}</Button>
          </>
        )}
      </div>

      {isLoading ? (
        <PageSpinner />
      ) : error ? (
        <Alert variant="danger">{serverMessageOr(error, t('classes.loadFailed'))}</Alert>
      ) : classes && chosen ? (
        <>
          <ClassPicker id="dashboard-class" classes={classes} value={chosen.id} onChange={choose} />
          <ClassOverview cls={chosen} />
        </>
      ) : (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h2 className="h4">{t('dashboard.welcome')}</h2>
            <p className="text-body-secondary mb-4">{t('classes.noneText')}</p>
            <div className="d-flex flex-wrap justify-content-center gap-2">
              <Button onClick={() => setCreatingClass(true)}>{t('classes.create')}</Button>
              <Link to="/classes" className="btn btn-outline-secondary">
                {t('classes.title')}
              </Link>
            </div>
          </Card.Body>
        </Card>
      )}

      <CreateClassModal show={creatingClass} variant="dashboard" onHide={() => setCreatingClass(false)} />
      <ClassManagementModal show={managing} onHide={() => setManaging(false)} classId={chosen?.id} />
      <CreateAssessmentModal
        show={creatingAssessment}
        classId={chosen?.id}
        onHide={() => setCreatingAssessment(false)}
      />
    </>
  );
}
