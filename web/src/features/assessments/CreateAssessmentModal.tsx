// Create Assessment modal (rules in assessmentSchemas.ts, failure texts in generationText.ts).
// Opened with a class id from the dashboard, class detail and assessments page; without one it
// offers a class select. The lesson text, the topic and the standard are separate fields, with a
// hint when the text is too short to build questions from. After the call it follows the generation job
// (polled every second) until the questions are ready, naming what made them.
// When the caller can see imported frameworks (GET /api/standards/frameworks not empty), the
// standard is chosen from the catalogue (StandardsPicker, sent as `standards`: the server fills the
// standard label from their codes); with none, the free-text standard field stays.
import { useEffect, useRef, useState } from 'react';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import { useGetClassesQuery } from '../classes';
import { StandardsPicker, useGetFrameworksQuery, type StandardRef } from '../standards';
import {
  useCreateAssessmentMutation,
  useGetGenerationQuery,
  useRetryGenerationMutation,
  type Assessment,
} from './assessmentsApi';
import {
  CREATION_TYPE_LABELS,
  DEFAULT_QUESTIONS,
  MAX_QUESTIONS,
  MIN_QUESTIONS,
  createAssessmentSchema,
  type CreateAssessmentFormInput,
  type CreateAssessmentFormValues,
} from './assessmentSchemas';
import {
  createdMessage,
  creationFailureMessage,
  jobFailureMessage,
  questionSourceOf,
  lessonLanguageHint,
  shortLessonWords,
  sourceLabel,
  writingLabel,
  type QuestionSource,
} from './generationText';
import { NamedProgressBar } from '../../components/NamedProgressBar';
import type { JustCreatedState } from './AssessmentPreviewPage';
import { useTranslation } from '../../i18n/react';
import { useAssessmentText } from './texts';

export interface CreateAssessmentModalProps {
  show: boolean;
  classId: string | undefined;
  onHide: () => void;
}

const POLL_MS = 1000;

const EMPTY: CreateAssessmentFormInput = {
  classId: '',
  title: '',
  contentToAssess: '',
  questionType: 'multiple_choice',
  numberOfQuestions: String(DEFAULT_QUESTIONS),
  description: '',
  topic: '',
  standard: '',
};

function ClassSelect({ registration, error }: { registration: UseFormRegisterReturn; error?: string | undefined }) {
  const { t } = useTranslation('assessments');
  const classes = useGetClassesQuery();
  return (
    <Form.Group className="mb-3" controlId="create-assessment-class">
      <Form.Label>{t('create.class')}</Form.Label>
      <Form.Select
        isInvalid={Boolean(error)}
        aria-describedby={error ? 'create-assessment-class-error' : undefined}
        disabled={classes.isLoading}
        {...registration}
      >
        <option value="">{classes.isLoading ? t('create.loadingClasses') : t('create.selectClass')}</option>
        {(classes.data ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Form.Select>
      {error && (
        <Form.Control.Feedback type="invalid" id="create-assessment-class-error">
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

/** Progress of the generation job; calls onDone (with what made the questions) once they exist. */
function GenerationProgress({
  assessment,
  onDone,
}: {
  assessment: Assessment;
  onDone: (source: QuestionSource | null) => void;
}) {
  const { t } = useTranslation('assessments');
  const text = useAssessmentText();
  const [stopped, setStopped] = useState(false);
  const job = useGetGenerationQuery(assessment.id, { pollingInterval: stopped ? 0 : POLL_MS });
  const [retry, retryState] = useRetryGenerationMutation();
  const toast = useToast();
  const doneRef = useRef(false);
  const status = job.data?.status;
  const source = questionSourceOf(job.data?.questionSource ?? job.data?.provider);

  useEffect(() => {
    if (status === 'failed') setStopped(true);
    if (status === 'queued' || status === 'running') setStopped(false);
    if (status === 'succeeded' && !doneRef.current) {
      doneRef.current = true;
      setStopped(true);
      onDone(source);
    }
  }, [status, onDone, source]);

  const onRetry = async () => {
    try {
      await retry(assessment.id).unwrap();
      setStopped(false);
    } catch (error) {
      toast({
        title: t('common:toast.error'),
        description: text(creationFailureMessage(error)),
        variant: 'destructive',
      });
    }
  };

  if (status === 'failed' && job.data) {
    return (
      <div>
        <Alert variant="danger" role="alert">
          {text(jobFailureMessage(job.data))}
        </Alert>
        <Button onClick={() => void onRetry()} disabled={retryState.isLoading}>
          {retryState.isLoading ? t('generation.retrying') : t('generation.retry')}
        </Button>
      </div>
    );
  }

  const label =
    status === 'succeeded'
      ? (text(sourceLabel(source)) ?? t('generation.ready'))
      : status === 'running'
        ? text(writingLabel(source))
        : t('generation.waiting');
  const now = status === 'succeeded' ? 100 : status === 'running' ? 60 : 20;
  return (
    <div aria-live="polite">
      <div className="mb-2 d-flex align-items-center gap-2">
        {status !== 'succeeded' && <Spinner animation="border" size="sm" aria-hidden="true" />}
        <span>{t('generation.generating', { title: assessment.title })}</span>
      </div>
      <NamedProgressBar
        percent={now}
        animated={status !== 'succeeded'}
        name={t('generation.progress')}
        className="mb-2"
      />
      <p className="small text-body-secondary mb-0" data-testid="generation-status">
        {label}
      </p>
    </div>
  );
}

export function CreateAssessmentModal({ show, classId, onHide }: CreateAssessmentModalProps) {
  const { t } = useTranslation('assessments');
  const text = useAssessmentText();
  const navigate = useNavigate();
  const toast = useToast();
  const [createAssessment, { isLoading }] = useCreateAssessmentMutation();
  const [created, setCreated] = useState<Assessment | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [standards, setStandards] = useState<StandardRef[]>([]);
  const frameworks = useGetFrameworksQuery(undefined, { skip: !show });
  const withCatalogue = (frameworks.data?.length ?? 0) > 0;
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<CreateAssessmentFormInput, unknown, CreateAssessmentFormValues>({
    resolver: zodResolver(createAssessmentSchema),
    defaultValues: { ...EMPTY, classId: classId ?? '' },
  });

  const lesson = watch('contentToAssess') ?? '';
  const shortWords = shortLessonWords(lesson);
  const hint = shortWords !== null ? t('create.shortHint', { count: shortWords }) : text(lessonLanguageHint(lesson));

  useEffect(() => {
    if (show) {
      reset({ ...EMPTY, classId: classId ?? '' });
      setCreated(null);
      setFailure(null);
      setStandards([]);
    }
  }, [show, classId, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const chosenClass = classId ?? values.classId;
    if (!chosenClass) {
      setError('classId', { message: t('create.noClass') });
      toast({ title: t('common:toast.error'), description: t('create.noClass'), variant: 'destructive' });
      return;
    }
    const aligned = withCatalogue && standards.length > 0 ? { standards: standards.map((s) => s.identifier) } : {};
    try {
      const assessment = await createAssessment({
        ...aligned,
        classId: chosenClass,
        title: values.title,
        contentToAssess: values.contentToAssess,
        questionType: values.questionType,
        numberOfQuestions: values.numberOfQuestions,
        description: values.description,
        ...(values.topic ? { topic: values.topic } : {}),
        ...(values.standard ? { standard: values.standard } : {}),
      }).unwrap();
      setCreated(assessment);
    } catch (error) {
      const message = text(creationFailureMessage(error));
      setFailure(message);
      toast({ title: t('common:toast.error'), description: message, variant: 'destructive' });
    }
  });

  const onGenerated = (source: QuestionSource | null) => {
    if (!created) return;
    toast({ title: t('common:success'), description: text(createdMessage(source)) });
    onHide();
    const state: JustCreatedState = { justCreated: true };
    void navigate(`/assessment-preview/${created.id}`, { state });
  };

  return (
    <Modal show={show} onHide={onHide} centered size="lg" aria-labelledby="create-assessment-title">
      <Modal.Header closeButton closeLabel={t('close')}>
        <Modal.Title id="create-assessment-title">{t('create.title')}</Modal.Title>
      </Modal.Header>
      {created ? (
        <Modal.Body>
          <GenerationProgress assessment={created} onDone={onGenerated} />
        </Modal.Body>
      ) : (
        <Form noValidate onSubmit={onSubmit} aria-label={t('create.form')}>
          <Modal.Body>
            {failure && (
              <Alert variant="danger" role="alert">
                {failure}
              </Alert>
            )}
            {classId === undefined && (
              <ClassSelect registration={register('classId')} error={text(errors.classId?.message)} />
            )}
            <TextField
              id="create-assessment-title-input"
              label={t('create.titleLabel')}
              registration={register('title')}
              error={text(errors.title?.message)}
            />
            <Form.Group className="mb-3" controlId="create-assessment-content">
              <Form.Label>{t('create.content')}</Form.Label>
              <Form.Control
                as="textarea"
                rows={6}
                placeholder={t('create.contentPlaceholder')}
                isInvalid={Boolean(errors.contentToAssess)}
                aria-describedby={
                  [
                    errors.contentToAssess ? 'create-assessment-content-error' : '',
                    hint ? 'create-assessment-content-hint' : '',
                  ]
                    .filter(Boolean)
                    .join(' ') || undefined
                }
                {...register('contentToAssess')}
              />
              {errors.contentToAssess && (
                <Form.Control.Feedback type="invalid" id="create-assessment-content-error">
                  {text(errors.contentToAssess.message)}
                </Form.Control.Feedback>
              )}
              {hint && !errors.contentToAssess && (
                <Form.Text id="create-assessment-content-hint" className="d-block" aria-live="polite">
                  {hint}
                </Form.Text>
              )}
            </Form.Group>
            <div className="row">
              <div className="col-sm-6">
                <TextField
                  id="create-assessment-topic"
                  label={t('create.topic')}
                  placeholder={t('create.topicPlaceholder')}
                  registration={register('topic')}
                  error={text(errors.topic?.message)}
                />
              </div>
              {!withCatalogue && (
                <div className="col-sm-6">
                  <TextField
                    id="create-assessment-standard"
                    label={t('create.standard')}
                    placeholder={t('create.standardPlaceholder')}
                    registration={register('standard')}
                    error={text(errors.standard?.message)}
                  />
                </div>
              )}
            </div>
            {withCatalogue && (
              <StandardsPicker
                id="create-assessment-standards"
                value={standards}
                onChange={setStandards}
                disabled={isLoading}
              />
            )}
            <div className="row">
              <Form.Group className="mb-3 col-sm-7" controlId="create-assessment-type">
                <Form.Label>{t('create.type')}</Form.Label>
                <Form.Select
                  isInvalid={Boolean(errors.questionType)}
                  aria-describedby={errors.questionType ? 'create-assessment-type-error' : undefined}
                  {...register('questionType')}
                >
                  {Object.keys(CREATION_TYPE_LABELS).map((value) => (
                    <option key={value} value={value}>
                      {t(`type.${value}`)}
                    </option>
                  ))}
                </Form.Select>
                {errors.questionType && (
                  <Form.Control.Feedback type="invalid" id="create-assessment-type-error">
                    {text(errors.questionType.message)}
                  </Form.Control.Feedback>
                )}
              </Form.Group>
              <Form.Group className="mb-3 col-sm-5" controlId="create-assessment-count">
                <Form.Label>{t('create.count')}</Form.Label>
                <Form.Control
                  type="number"
                  min={MIN_QUESTIONS}
                  max={MAX_QUESTIONS}
                  inputMode="numeric"
                  isInvalid={Boolean(errors.numberOfQuestions)}
                  aria-describedby={errors.numberOfQuestions ? 'create-assessment-count-error' : undefined}
                  {...register('numberOfQuestions')}
                />
                {errors.numberOfQuestions && (
                  <Form.Control.Feedback type="invalid" id="create-assessment-count-error">
                    {text(errors.numberOfQuestions.message)}
                  </Form.Control.Feedback>
                )}
              </Form.Group>
            </div>
            <Form.Group className="mb-3" controlId="create-assessment-description">
              <Form.Label>{t('create.description')}</Form.Label>
              <Form.Control as="textarea" rows={2} {...register('description')} />
            </Form.Group>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="outline-secondary" onClick={onHide}>
              {t('cancel')}
            </Button>
            <Button type="submit" disabled={isLoading}>
              {isLoading ? t('create.creating') : t('create.submit')}
            </Button>
          </Modal.Footer>
        </Form>
      )}
    </Modal>
  );
}
