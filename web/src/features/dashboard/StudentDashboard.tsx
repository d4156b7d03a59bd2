// Student "/": not enrolled → welcome; otherwise the ready panel (up to 3
// available assessments), four stat cards, recent results and My Classes. A result card names the
// server's level, as the result page does (docs/adr/005); the stat cards count scores.
// "My standards" lists the student's standards with their trend.
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { PageSpinner } from '../../components/PageSpinner';
import {
  formatDate,
  ResultLevel,
  attemptText,
  ABOVE_STANDARD_SCORE,
  bandForLevel,
  NOT_COUNTED_PRACTICE,
  practiceLink,
  resultPracticeLink,
  roundPercent,
  toPercent,
} from '../assessments';
import { useAuth } from '../../session/useAuth';
import { NotEnrolledWelcome, StudentClassesCard } from '../classes';
import { StudentStandards } from '../standards';
import {
  useGetAvailableAssessmentsQuery,
  useGetStudentClassesQuery,
  useGetStudentResultsQuery,
  type AvailableAssessment,
  type StudentResult,
} from '../student';

import { formatPercent } from '../../i18n/format';
import { useLabel } from '../../i18n/labels';
import { useTranslation } from '../../i18n/react';

export const READY_LIMIT = 3;

function ReadyPanel({ available }: { available: AvailableAssessment[] }) {
  const { t } = useTranslation('student');
  const shown = available.slice(0, READY_LIMIT);
  const more = available.length - shown.length;
  return (
    <Card className="shadow-sm mb-4 border-primary" as="section" aria-labelledby="ready-heading">
      <Card.Body className="p-4">
        {available.length === 0 ? (
          <div className="text-center">
            <h2 id="ready-heading" className="h4">
              {t('dashboard.caughtUp')}
            </h2>
            <p className="text-body-secondary mb-0">{t('dashboard.nothingWaiting')}</p>
          </div>
        ) : (
          <>
            <h2 id="ready-heading" className="h4 mb-3">
              {t('dashboard.ready')}
            </h2>
            <Row xs={1} md={3} className="g-3">
              {shown.map((a) => (
                <Col key={a.id}>
                  <Card className="h-100" as="article" aria-label={a.title}>
                    <Card.Body className="d-flex flex-column">
                      <h3 className="h6">{a.title}</h3>
                      <p className="small text-body-secondary mb-2">
                        {a.className}
                        {a.subject ? ` · ${a.subject}` : ''}
                      </p>
                      <p className="small mb-3">{t('dashboard.questions', { count: a.questionCount })}</p>
                      <Link className="btn btn-primary btn-sm mt-auto" to={`/assessment/${a.id}`}>
                        {t('dashboard.start')}
                      </Link>
                    </Card.Body>
                  </Card>
                </Col>
              ))}
            </Row>
            {more > 0 && <p className="mt-3 mb-0 text-body-secondary">{t('dashboard.more', { count: more })}</p>}
          </>
        )}
      </Card.Body>
    </Card>
  );
}

function StatCard({ id, label, value, note }: { id: string; label: string; value: string | number; note?: string }) {
  return (
    <Card className="shadow-sm h-100">
      <Card.Body>
        <div className="small text-body-secondary">{label}</div>
        <div className="fs-3 fw-bold" data-testid={`stat-${id}`}>
          {value}
        </div>
        {note && <div className="small text-body-secondary">{note}</div>}
      </Card.Body>
    </Card>
  );
}

const scoreOf = (r: StudentResult) => toPercent(r.score ?? r.percentage);

function ResultCard({ result }: { result: StudentResult }) {
  const label = useLabel();
  const { t } = useTranslation('student');
  const score = roundPercent(scoreOf(result));
  const band = result.performanceLevel ? bandForLevel(result.performanceLevel) : undefined;
  const link = practiceLink(result.assessmentId, scoreOf(result));
  const byResult = resultPracticeLink(result.id, 'student');
  const total = result.totalQuestions ?? result.correctAnswers + result.incorrectAnswers;
  const title = result.assessment?.title ?? t('dashboard.assessment');
  return (
    <Card className="h-100" as="article" aria-label={t('dashboard.resultLabel', { title })} border={band?.variant}>
      <Card.Body className="d-flex flex-column">
        <div className="d-flex justify-content-between gap-2">
          <h3 className="h6 mb-1">{title}</h3>
          <span className="fw-bold">{formatPercent(score)}</span>
        </div>
        {result.assessment?.description && (
          <p className="small text-body-secondary mb-2">{result.assessment.description}</p>
        )}
        {band && (
          <div className="mb-2">
            <ResultLevel result={result} testId="performance-badge" />
          </div>
        )}
        <p className="small mb-1">
          {t('dashboard.counts', { correct: result.correctAnswers, incorrect: result.incorrectAnswers, total })}
        </p>
        <p className="small text-body-secondary mb-1">
          {result.className ? `${result.className} · ` : ''}
          {t('dashboard.completed', { date: formatDate(result.submittedAt) })}
        </p>
        <p className="small text-body-secondary mb-3">{attemptText(result)}</p>
        {/* Practice follows the counted attempt (docs/adr/005): an attempt that does not count offers none. */}
        {result.counted ? (
          <div className="d-flex flex-wrap gap-2 mt-auto">
            <Link className="btn btn-outline-primary btn-sm" to={link.to}>
              {label(link.label)}
            </Link>
            <Link className="btn btn-outline-primary btn-sm" to={byResult.to}>
              {label(byResult.label)}
            </Link>
          </div>
        ) : (
          <p className="small text-body-secondary mt-auto mb-0">{label(NOT_COUNTED_PRACTICE)}</p>
        )}
      </Card.Body>
    </Card>
  );
}

export function StudentDashboard() {
  const { user } = useAuth();
  const { t } = useTranslation('student');
  // Classes screens (features/classes): not enrolled shows the welcome; otherwise the My Classes card.
  const enrolments = useGetStudentClassesQuery();
  const enrolled = Boolean(enrolments.data && enrolments.data.length > 0);
  // Read again on each visit: a teacher may have assigned something since.
  const available = useGetAvailableAssessmentsQuery(undefined, { skip: !enrolled, refetchOnMountOrArgChange: true });
  const results = useGetStudentResultsQuery(undefined, { skip: !enrolled, refetchOnMountOrArgChange: true });
  if (enrolments.isLoading) return <PageSpinner />;
  if (enrolments.data && enrolments.data.length === 0) return <NotEnrolledWelcome firstName={user?.firstName} />;

  const list = results.data ?? [];
  const scores = list.map(scoreOf);
  // No attempt, no average: a dash, never a 0 % nobody scored.
  const average = scores.length ? Math.round(scores.reduce((a, b) => a + b, 0) / scores.length) : null;
  const above = scores.filter((s) => s >= ABOVE_STANDARD_SCORE).length;

  return (
    <>
      {/* "Welcome back" only to someone who had signed in before this session. */}
      <h1 className="h2 mb-1">
        {user
          ? t(user.returning ? 'dashboard.welcomeBackName' : 'dashboard.welcomeName', { name: user.firstName })
          : t('dashboard.welcome')}
      </h1>
      <p className="text-body-secondary mb-4">{t('dashboard.subtitle')}</p>
      {available.isLoading ? <PageSpinner /> : <ReadyPanel available={available.data ?? []} />}
      <Row xs={2} lg={4} className="g-3 mb-4">
        <Col>
          <StatCard id="Classes Enrolled" label={t('dashboard.classesEnrolled')} value={enrolments.data?.length ?? 0} />
        </Col>
        <Col>
          <StatCard id="Assessments Taken" label={t('dashboard.assessmentsTaken')} value={list.length} />
        </Col>
        <Col>
          <StatCard
            id="Average Score"
            label={t('dashboard.averageScore')}
            value={average === null ? '—' : formatPercent(average)}
            note={average === null ? t('dashboard.noAttempts') : undefined}
          />
        </Col>
        <Col>
          <StatCard
            id="Above Standard"
            label={t('dashboard.aboveStandard')}
            value={above}
            note={t('dashboard.aboveNote', { percent: formatPercent(ABOVE_STANDARD_SCORE) })}
          />
        </Col>
      </Row>
      <Card className="shadow-sm mb-4" as="section" aria-labelledby="recent-results-heading">
        <Card.Body className="p-4">
          <h2 id="recent-results-heading" className="h5 mb-3">
            {t('dashboard.recent')}
          </h2>
          {results.isLoading ? (
            <PageSpinner />
          ) : list.length === 0 ? (
            <p className="text-body-secondary mb-0">{t('dashboard.noResults')}</p>
          ) : (
            <Row xs={1} md={2} xl={3} className="g-3">
              {list.map((r) => (
                <Col key={r.id}>
                  <ResultCard result={r} />
                </Col>
              ))}
            </Row>
          )}
        </Card.Body>
      </Card>
      {user && (
        <Card className="shadow-sm mb-4">
          <Card.Body className="p-4">
            <StudentStandards studentId={user.id} />
          </Card.Body>
        </Card>
      )}
      <StudentClassesCard />
    </>
  );
}
