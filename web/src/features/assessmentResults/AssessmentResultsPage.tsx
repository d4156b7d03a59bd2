// /assessment-results/{id}: one assessment's results — summary, each student's score, level and
// answers, two charts, the aligned standards and item statistics. Live: a submission in the class
// refreshes the page, and the live progress panel shows who is taking it and how far each is (counts only).
// Its teachers (a class's it is assigned to too) open its AI recommendations from here.
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { resultsSharePercent, useGetAssessmentResultsQuery, useLiveResults } from '../results';
import { ItemDifficultyChart } from './charts/ItemDifficultyChart';
import { ScoreDistributionChart } from './charts/ScoreDistributionChart';
import { ItemStatisticsTable } from './ItemStatisticsTable';
import { LiveProgressPanel } from './LiveProgressPanel';
import { StandardsResultsCard } from './StandardsResultsCard';
import { StudentResultsTable } from './StudentResultsTable';
import { ALL_CLASSES, ClassesCard } from './ClassesCard';
import { ToReviewCard } from './ToReviewCard';
import { LmsScoresCard } from './LmsScoresCard';
import { StatCard } from '../../components/StatCard';
import { isStudentView, RecommendationButtons, useGetAssessmentQuery } from '../assessments';
import { useTranslation } from '../../i18n/react';
import { useLabel } from '../../i18n/labels';
import { formatPercent } from '../../i18n/format';

/**
 * The AI Recommendation buttons, for the teachers who read the assessment (its class's, and those of
 * a class it is assigned to, whose recommendations are written from their classes' results): the
 * ones the generation service answers. An admin reads the results but not the assessment: none.
 */
function Recommendations({ assessmentId }: { assessmentId: string }) {
  const { data } = useGetAssessmentQuery(assessmentId);
  if (!data || isStudentView(data)) return null;
  return <RecommendationButtons assessment={data} className="mt-3" />;
}

/**
 * Back to where the teacher came from: their assessments, or, for a teacher of a class it is
 * assigned to from another (their /assessments does not list it), that class's page.
 */
function BackLink({ assessmentId, classes = [] }: { assessmentId?: string; classes?: { classId: string }[] }) {
  const { t } = useTranslation('results');
  const { data } = useGetAssessmentQuery(assessmentId ?? '', { skip: !assessmentId });
  const onlyClass = classes.length === 1 ? classes[0] : undefined;
  if (data && !isStudentView(data) && data.canEdit === false && onlyClass)
    return (
      <Link to={`/class/${onlyClass.classId}`} className="link-secondary text-decoration-none">
        ← {t('page.backToClass')}
      </Link>
    );
  return (
    <Link to="/assessments" className="link-secondary text-decoration-none">
      ← {t('page.backToAssessments')}
    </Link>
  );
}

export function AssessmentResultsPage() {
  const { t } = useTranslation('results');
  const label = useLabel();
  const { id = '' } = useParams();
  const { data, isLoading, error } = useGetAssessmentResultsQuery(id);
  // Every class it is given to: a result in any of them shows without a reload.
  useLiveResults(data && [data.assessment.classId, ...data.classes.map((c) => c.classId)]);
  const [shownClass, setShownClass] = useState(ALL_CLASSES);

  if (isLoading) return <PageSpinner />;
  if (error || !data) {
    if (!error || (isApiError(error) && error.status === 404)) {
      return (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h1 className="h3">{t('page.notFound')}</h1>
            <p className="text-body-secondary">{t('page.notFoundText')}</p>
            <BackLink />
          </Card.Body>
        </Card>
      );
    }
    return (
      <>
        <Alert variant="danger">{serverMessageOr(error, t('page.loadFailed'))}</Alert>
        <BackLink />
      </>
    );
  }

  const { assessment, summary, results, questions, distribution, standards, classes } = data;
  const severalClasses = classes.length > 1;
  const shownResults = shownClass === ALL_CLASSES ? results : results.filter((r) => r.classId === shownClass);
  return (
    <>
      <div className="mb-3">
        <BackLink assessmentId={assessment.id} classes={classes} />
      </div>
      <div className="mb-4">
        <h1 className="h2 mb-1">{assessment.title}</h1>
        <p className="text-body-secondary mb-0">
          {assessment.className}
          {assessment.topic && ` · ${assessment.topic}`} · {t('page.questions', { count: assessment.questionCount })}
        </p>
        <Recommendations assessmentId={assessment.id} />
      </div>

      <Row xs={2} md={3} xl={5} className="g-3 mb-4">
        <StatCard
          label={t('page.submitted')}
          testId="stat-Submitted"
          value={`${summary.submitted} / ${summary.classSize}`}
        />
        <StatCard
          label={t('page.averageScore')}
          testId="stat-Average Score"
          value={summary.averageScore === null ? '—' : formatPercent(summary.averageScore)}
          note={summary.averageScore === null ? t('page.noAttempts') : undefined}
        />
        {/* Results counted by their level (a raised one at its raised level), docs/adr/005. */}
        <StatCard
          label={label('Above Standard')}
          testId="stat-Above Standard"
          value={String(summary.aboveStandard)}
          note={t('page.ofResults', {
            percent: formatPercent(resultsSharePercent(summary.aboveStandard, summary.submitted)),
          })}
          tone="success"
        />
        <StatCard
          label={label('At Standard')}
          testId="stat-At Standard"
          value={String(summary.atStandard)}
          note={t('page.ofResults', {
            percent: formatPercent(resultsSharePercent(summary.atStandard, summary.submitted)),
          })}
          tone="warning"
        />
        <StatCard
          label={label('Below Standard')}
          testId="stat-Below Standard"
          value={String(summary.belowStandard)}
          note={t('page.ofResults', {
            percent: formatPercent(resultsSharePercent(summary.belowStandard, summary.submitted)),
          })}
          tone="danger"
        />
      </Row>

      <LiveProgressPanel assessmentId={assessment.id} />

      {severalClasses && <ClassesCard classes={classes} shown={shownClass} onShow={setShownClass} />}

      <ToReviewCard assessmentId={assessment.id} />

      <LmsScoresCard
        assessmentId={assessment.id}
        names={Object.fromEntries(
          results.map((r) => [r.studentId, `${r.student.firstName} ${r.student.lastName}`.trim()]),
        )}
      />

      <Card as="section" className="shadow-sm mb-4" aria-labelledby="student-results-title">
        <Card.Body>
          <h2 id="student-results-title" className="h5">
            {t('page.studentResults')}
          </h2>
          <StudentResultsTable results={shownResults} questions={questions} showClass={severalClasses} />
        </Card.Body>
      </Card>

      {results.length > 0 && (
        <Row xs={1} lg={2} className="g-4 mb-4">
          <Col>
            <Card className="shadow-sm h-100">
              <Card.Body>
                <ScoreDistributionChart distribution={distribution} />
              </Card.Body>
            </Card>
          </Col>
          <Col>
            <Card className="shadow-sm h-100">
              <Card.Body>
                <ItemDifficultyChart questions={questions} />
              </Card.Body>
            </Card>
          </Col>
        </Row>
      )}

      <StandardsResultsCard assessmentId={assessment.id} standards={standards} submitted={summary.submitted} />

      <Card as="section" className="shadow-sm" aria-labelledby="item-stats-title">
        <Card.Body>
          <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2">
            <h2 id="item-stats-title" className="h5">
              {t('page.itemStatistics')}
            </h2>
            {/* Each option with who chose it and who was shown it, for a spreadsheet. */}
            <a
              className="btn btn-sm btn-outline-secondary"
              href={`/api/assessments/${assessment.id}/item-analysis`}
              download
            >
              {t('page.exportItemAnalysis')}
            </a>
          </div>
          <ItemStatisticsTable questions={questions} />
        </Card.Body>
      </Card>
    </>
  );
}
