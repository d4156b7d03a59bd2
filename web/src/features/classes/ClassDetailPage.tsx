// /class/{id}: name, subject, period, created date, join code that copies,
// Manage Students, Create Assessment, five stat cards, the results panel (level shares of the class's
// results and the live progress grid), the mastery of standards (heatmap), its teachers (owner and
// co-teachers), the LMS course's roster sync (a class linked to one), its students' accommodations (with the substitute's printout); 'Class not found'
// for a missing class.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Row from 'react-bootstrap/Row';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { ClassResultsPanel } from '../results';
import { ClassMasterySection } from '../standards';
import { ClassAccommodationsSection } from '../accommodations';
import { StudentLoginsSection } from '../studentLogins';
import { useAuth } from '../../session/useAuth';
import { ClassTeachersSection } from './ClassTeachersSection';
import { LmsRosterSection } from './LmsRosterSection';
import { JoinCodeBadge } from './JoinCodeBadge';
import { assessedShare, classSummary, formatDate, percent, periodLabel } from './classStats';
import { useGetClassQuery } from './classesApi';
import { StatCard } from '../../components/StatCard';
import { lazyModal } from '../../app/lazyModal';
import { loadCreateAssessmentModal, loadQtiImportDialog } from '../assessments';
import { useTranslation } from '../../i18n/react';

// Loaded when first opened: forms and their schemas stay out of the page's first load.
const CreateAssessmentModal = lazyModal(loadCreateAssessmentModal);
const QtiImportDialog = lazyModal(loadQtiImportDialog);
const ClassManagementModal = lazyModal(() => import('./ClassManagementModal').then((m) => m.ClassManagementModal));

function BackLink() {
  const { t } = useTranslation('teacher');
  return (
    <Link to="/classes" className="link-secondary text-decoration-none">
      {t('classPage.back')}
    </Link>
  );
}

export function ClassDetailPage() {
  const { id = '' } = useParams();
  const { data: cls, isLoading, error } = useGetClassQuery(id);
  const { user } = useAuth();
  const [managing, setManaging] = useState(false);
  const [creatingAssessment, setCreatingAssessment] = useState(false);
  const [importingQti, setImportingQti] = useState(false);
  const { t } = useTranslation('teacher');

  if (isLoading) return <PageSpinner />;
  if (error || !cls) {
    if (!error || (isApiError(error) && error.status === 404)) {
      return (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h1 className="h3">{t('classPage.notFound')}</h1>
            <p className="text-body-secondary">{t('classPage.notFoundText')}</p>
            <BackLink />
          </Card.Body>
        </Card>
      );
    }
    return (
      <>
        <Alert variant="danger">{serverMessageOr(error, t('classPage.loadFailed'))}</Alert>
        <BackLink />
      </>
    );
  }

  const period = periodLabel(cls.period, t);
  // Students by the level of their latest result, shares of those with a result (as on the dashboard).
  const summary = classSummary(cls);
  const ofStudents = (count: number) => assessedShare(percent(count, summary.assessed), summary.assessed, t);

  return (
    <>
      <div className="mb-3">
        <BackLink />
      </div>
      {/* Long names and subjects wrap (min-width 0, text-break): the page fits a 390 px phone. */}
      <div className="d-flex flex-wrap align-items-start gap-3 mb-4">
        <div className="flex-grow-1" style={{ minWidth: 0 }}>
          <h1 className="h2 mb-2 text-break">{cls.name}</h1>
          <div className="d-flex flex-wrap align-items-center gap-3 text-body-secondary text-break">
            <Badge bg="primary" className="text-wrap text-break text-start mw-100">
              {cls.subject}
            </Badge>
            {period && <span>{period}</span>}
            <span>{t('classPage.created', { date: formatDate(cls.createdAt) })}</span>
            {cls.coTeaching && (
              <Badge bg="info-subtle" text="info-emphasis">
                {t('classPage.coTeachingWith', { name: cls.teacherName ?? t('classPage.itsOwner') })}
              </Badge>
            )}
            <span className="d-inline-flex align-items-center gap-2">
              {t('classPage.joinCode')} <JoinCodeBadge code={cls.joinCode} />
            </span>
          </div>
        </div>
        <div className="d-flex flex-wrap gap-2">
          <Button variant="outline-primary" onClick={() => setManaging(true)}>
            {t('classPage.manageStudents')}
          </Button>
          <Button variant="outline-primary" onClick={() => setImportingQti(true)}>
            {t('classPage.importQti')}
          </Button>
          <Button onClick={() => setCreatingAssessment(true)}>{t('classPage.createAssessment')}</Button>
        </div>
      </div>

      <Row xs={1} sm={2} lg={5} className="g-3 mb-4">
        {/* The test ids stay the English labels (the browser tests read them). */}
        <StatCard label={t('classPage.studentsEnrolled')} testId="stat-Students Enrolled" value={cls.studentCount} />
        <StatCard
          label={t('classPage.assessmentsCreated')}
          testId="stat-Assessments Created"
          value={cls.assessmentCount}
        />
        <StatCard
          label={t('common:label.Below_Standard')}
          testId="stat-Below Standard"
          value={cls.belowStandard}
          note={ofStudents(cls.belowStandard)}
          tone="danger"
        />
        <StatCard
          label={t('common:label.At_Standard')}
          testId="stat-At Standard"
          value={cls.atStandard}
          note={ofStudents(cls.atStandard)}
          tone="warning"
        />
        <StatCard
          label={t('common:label.Above_Standard')}
          testId="stat-Above Standard"
          value={cls.aboveStandard}
          note={ofStudents(cls.aboveStandard)}
          tone="success"
        />
      </Row>

      <ClassResultsPanel classId={cls.id} showBands />
      <ClassMasterySection classId={cls.id} />
      <ClassTeachersSection cls={cls} />
      {/* A class linked to an LMS course: its learners synced from the LMS (NRPS). */}
      {user?.role === 'teacher' && <LmsRosterSection classId={cls.id} />}
      <ClassAccommodationsSection classId={cls.id} className={cls.name} />
      {/* Accounts without email are made by the class's teachers (docs/adr/015). */}
      {user?.role === 'teacher' && <StudentLoginsSection classId={cls.id} className={cls.name} />}

      <ClassManagementModal show={managing} onHide={() => setManaging(false)} classId={cls.id} defaultTab="manage" />
      <CreateAssessmentModal show={creatingAssessment} classId={cls.id} onHide={() => setCreatingAssessment(false)} />
      <QtiImportDialog show={importingQti} classId={cls.id} onHide={() => setImportingQti(false)} />
    </>
  );
}
