// /assessment-preview/{id}: the freshly created assessment, its first 3 questions and the
// next steps (edit, assign, class, done), plus the preview modal with the activate toggle.
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import {
  useAssignAssessmentMutation,
  isStudentView,
  useGetAssessmentQuery,
  useGetGenerationQuery,
  useGetQuestionsQuery,
  type Assessment,
} from './assessmentsApi';
import { AssessmentPreviewModal } from './AssessmentPreviewModal';
import { AssignDialog } from './AssignDialog';
import { CopyDialog } from './CopyDialog';
import { formatDate } from './format';
import { qtiExportPath } from './qtiApi';
import { jobFailureMessage, questionSourceOf, sourceLabel, successHeader } from './generationText';
import { ActivityBadge, LifecycleBadge, lifecycleHint, lifecycleOf } from './LifecycleBadge';
import { QuestionPreview } from './QuestionPreview';
import { RecommendationButtons } from './RecommendationButtons';
import { standardsOf } from './QuestionEditor';
import { StandardChips } from '../standards';
import { useTranslation } from '../../i18n/react';
import { useAssessmentText } from './texts';

export const PREVIEW_QUESTION_LIMIT = 3;

/**
 * Why the page offers no change: the caller teaches a class the assessment is assigned to, not its
 * own class (the API's `canEdit`), so changing, assigning, copying or deleting it is its own
 * class's teachers'.
 */
export function ReadOnlyNote({ assessment }: { assessment: Assessment }) {
  const { t } = useTranslation('assessments');
  const owner = assessment.className
    ? t('preview.theClass', { name: assessment.className })
    : t('preview.anotherClass');
  return (
    <Alert variant="info" className="mb-3" data-testid="read-only-note">
      {t('preview.readOnly', { owner })}
    </Alert>
  );
}

export function AssessmentNotFound() {
  const { t } = useTranslation('assessments');
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h1 className="h4">{t('preview.notFound')}</h1>
        <Link to="/assessments">{t('preview.backToList')}</Link>
      </Card.Body>
    </Card>
  );
}

/** The navigation state the creation dialog opens this page with (CreateAssessmentModal). */
export interface JustCreatedState {
  justCreated: true;
}

const isJustCreated = (state: unknown) =>
  typeof state === 'object' && state !== null && (state as Partial<JustCreatedState>).justCreated === true;

/**
 * The creation banner is for the visit that follows the creation only: read once from the history
 * entry's state, which is then cleared, so that a reload or a later visit shows the assessment
 * without it.
 */
function useJustCreated(): boolean {
  const location = useLocation();
  const navigate = useNavigate();
  const [justCreated] = useState(() => isJustCreated(location.state));
  const stateSet = isJustCreated(location.state);
  useEffect(() => {
    if (stateSet) void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [stateSet, navigate, location.pathname, location.search]);
  return justCreated;
}

export function AssessmentPreviewPage() {
  const { t } = useTranslation('assessments');
  const text = useAssessmentText();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const justCreated = useJustCreated();
  const toast = useToast();
  const assessment = useGetAssessmentQuery(id);
  const teacherView = assessment.data && !isStudentView(assessment.data) ? assessment.data : undefined;
  const generating = teacherView?.generationStatus === 'generating';
  const job = useGetGenerationQuery(id, { skip: !generating, pollingInterval: generating ? 1000 : 0 });
  const jobDone = job.data?.status === 'succeeded';
  const questions = useGetQuestionsQuery(id, { skip: !assessment.data });
  const [assign, assignState] = useAssignAssessmentMutation();
  const [showModal, setShowModal] = useState(false);
  const [dialog, setDialog] = useState<'assign' | 'copy' | null>(null);

  // Once a running job finishes, read the assessment and its questions again.
  const { refetch: refetchAssessment } = assessment;
  const { refetch: refetchQuestions } = questions;
  const hasAssessment = Boolean(assessment.data);
  useEffect(() => {
    if (!jobDone) return;
    void refetchAssessment();
    if (hasAssessment) void refetchQuestions();
  }, [jobDone, hasAssessment, refetchAssessment, refetchQuestions]);

  if (assessment.isLoading) return <PageSpinner />;
  if (!assessment.data || isStudentView(assessment.data)) return <AssessmentNotFound />;
  const a = assessment.data;
  const list = questions.data ?? [];
  const extra = Math.max(0, list.length - PREVIEW_QUESTION_LIMIT);
  // What made the questions: the header claims AI only when a model wrote them.
  const provider = text(sourceLabel(a.generationProvider));
  const failed = a.generationStatus === 'failed' || job.data?.status === 'failed';

  const onAssign = async () => {
    try {
      const result = await assign({ id: a.id, body: {} }).unwrap();
      toast({ title: t('preview.assigned'), description: result.message });
    } catch {
      toast({
        title: t('preview.assignFailed'),
        description: t('preview.assignFailedText'),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Card className="shadow-sm mb-4 border-success">
        <Card.Body className="p-4">
          {failed ? (
            <Alert variant="warning" className="mb-2" data-testid="generation-failed">
              <p className="fw-semibold mb-1">{t('preview.noQuestionsCreated')}</p>
              <p className="mb-0">
                {text(job.data?.status === 'failed' ? jobFailureMessage(job.data) : a.generationError) ??
                  t('generation.createFailed')}
              </p>
            </Alert>
          ) : (
            justCreated && (
              <p className="text-success fw-semibold mb-2" data-testid="created-banner">
                {text(successHeader(generating ? null : questionSourceOf(a.generationProvider)))}
              </p>
            )
          )}
          {/* Questions were made, but some generated ones were left out (e.g. they named a standard not chosen). */}
          {!failed && a.generationStatus === 'ready' && a.generationError && (
            <Alert variant="info" className="mb-2" data-testid="generation-note">
              {a.generationError}
            </Alert>
          )}
          <h1 className="h3 mb-2">{a.title}</h1>
          <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
            {(a.topic || a.standard) && (
              <Badge bg="primary" className="text-wrap text-start" style={{ maxWidth: '100%' }}>
                {(a.standard || a.topic).slice(0, 80)}
              </Badge>
            )}
            <Badge bg="light" text="dark">
              {t('questionCount', { count: a.questionCount })}
            </Badge>
            <ActivityBadge assessment={a} />
            <LifecycleBadge assessment={a} />
            {a.commonAssessmentId && (
              <Badge bg="info" text="dark" title={t('preview.districtTitle')}>
                {t('preview.district')}
              </Badge>
            )}
          </div>
          {standardsOf(a).length > 0 && (
            <div className="mb-2">
              <StandardChips standards={standardsOf(a)} label={t('preview.standards')} />
            </div>
          )}
          <p className="small mb-2" data-testid="lifecycle-hint">
            {lifecycleHint(a, t)}
          </p>
          <p className="small text-body-secondary mb-2">
            {t('preview.created', { date: formatDate(a.createdAt) })}
            {a.className ? ` · ${a.className}` : ''}
            {provider ? ` · ${provider}` : ''}
          </p>
          {a.description && <p className="mb-3">{a.description}</p>}
          {!a.canEdit && <ReadOnlyNote assessment={a} />}
          {/* Every teacher who reads it here reads its recommendations (a teacher of a class it is
              assigned to from another class: written from their classes' results). */}
          <RecommendationButtons assessment={a} />
          {generating && !jobDone && !failed && (
            <p className="text-body-secondary" aria-live="polite">
              {t('preview.stillGenerating')}
            </p>
          )}
          <div className="d-flex flex-wrap gap-2">
            {/* Changing, assigning, copying and exporting it: its own class's teachers only (canEdit). */}
            {a.canEdit && (
              <>
                <Link className="btn btn-outline-primary" to={`/assessment-edit/${a.id}`}>
                  {a.commonAssessmentId ? t('preview.editDetails') : t('preview.editQuestions')}
                </Link>
                {/* Assigning is once per assessment; a closed one reopens with Activate (in Preview). An
                    assessment without questions is not assigned (the server refuses it too). */}
                <Button
                  onClick={() => void onAssign()}
                  disabled={assignState.isLoading || lifecycleOf(a) !== 'draft' || a.questionCount === 0}
                  title={a.questionCount === 0 ? t('preview.addQuestionFirst') : undefined}
                >
                  {assignState.isLoading
                    ? t('preview.assigning')
                    : lifecycleOf(a) === 'draft'
                      ? t('preview.assign')
                      : t('preview.assignedButton')}
                </Button>
                {a.questionCount > 0 && (
                  <Button variant="outline-primary" onClick={() => setDialog('assign')}>
                    {t('preview.assignMore')}
                  </Button>
                )}
                <Button
                  variant="outline-secondary"
                  onClick={() => setDialog('copy')}
                  disabled={a.generationStatus === 'generating'}
                >
                  {t('preview.copy')}
                </Button>
              </>
            )}
            <Button variant="outline-secondary" onClick={() => setShowModal(true)}>
              {t('previewButton')}
            </Button>
            {/* The QTI 3.0 package downloads by a plain link: a same-origin GET with the session cookie. */}
            {a.canEdit && a.questionCount > 0 && a.generationStatus !== 'generating' && (
              <a className="btn btn-outline-secondary" href={qtiExportPath(a.id)} download>
                {t('preview.exportQti')}
              </a>
            )}
            {/* The taking page as students see it; nothing the teacher does there is saved. */}
            {a.questionCount > 0 && (
              <Link className="btn btn-outline-secondary" to={`/assessment-try/${a.id}`}>
                {t('preview.try')}
              </Link>
            )}
            <Link className="btn btn-outline-secondary" to={`/assessment-results/${a.id}`}>
              {t('results')}
            </Link>
            {a.canEdit && (
              <Link className="btn btn-outline-secondary" to={`/class/${a.classId}`}>
                {t('preview.viewClass')}
              </Link>
            )}
            <Button variant="success" onClick={() => void navigate('/assessments')}>
              {t('preview.done')}
            </Button>
          </div>
        </Card.Body>
      </Card>
      <Card className="shadow-sm">
        <Card.Header as="h2" className="h5">
          {t('preview.questions')}
        </Card.Header>
        {questions.isLoading ? (
          <Card.Body>
            <PageSpinner />
          </Card.Body>
        ) : list.length === 0 ? (
          <Card.Body>{t('preview.noQuestions')}</Card.Body>
        ) : (
          <ol className="list-group list-group-flush list-unstyled mb-0">
            {list.slice(0, PREVIEW_QUESTION_LIMIT).map((q, i) => (
              <QuestionPreview key={q.id} question={q} index={i} />
            ))}
          </ol>
        )}
        {extra > 0 && <Card.Footer className="text-body-secondary">{t('preview.more', { count: extra })}</Card.Footer>}
      </Card>
      <AssessmentPreviewModal show={showModal} onHide={() => setShowModal(false)} assessment={a} questions={list} />
      {/* Mounted while open only: each opening starts from what the assessment has now. */}
      {dialog === 'assign' && <AssignDialog show assessment={a} onHide={() => setDialog(null)} />}
      {dialog === 'copy' && <CopyDialog show assessment={a} onHide={() => setDialog(null)} />}
    </>
  );
}
