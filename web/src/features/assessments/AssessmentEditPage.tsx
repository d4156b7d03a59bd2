// /assessment-edit/{id} (rules in assessmentSchemas.ts): the details form with a due date, and per question
// edit, points, move up/down, duplicate, delete and add. Once students have submitted, only the
// wording and the order may change (the server answers 409 has_submissions to the rest).
import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { TextField } from '../../components/TextField';
import { useToast } from '../../components/toast/useToast';
import {
  useAddQuestionMutation,
  useDeleteQuestionMutation,
  useDuplicateQuestionMutation,
  isStudentView,
  useGetAssessmentQuery,
  useGetQuestionsQuery,
  useReorderQuestionsMutation,
  useUpdateAssessmentMutation,
  useUpdateQuestionMutation,
  type Assessment,
  type Question,
} from './assessmentsApi';
import { AssessmentNotFound, ReadOnlyNote } from './AssessmentPreviewPage';
import {
  assessmentDetailsSchema,
  dueDateToSend,
  questionToSend,
  toDateTimeLocal,
  type AssessmentDetailsValues,
  type QuestionEditValues,
} from './assessmentSchemas';
import { LifecycleBadge, lifecycleHint } from './LifecycleBadge';
import { QuestionEditor, standardsOf } from './QuestionEditor';
import { StandardChips, type StandardRef } from '../standards';
import { AddFromBank, SaveToBankButton } from '../bank';
import { QuestionPreview } from './QuestionPreview';
import { useTranslation } from '../../i18n/react';
import { useAssessmentText } from './texts';

const MAX_QUESTIONS = 20;

function DetailsForm({ assessment }: { assessment: Assessment }) {
  const { t } = useTranslation('assessments');
  const text = useAssessmentText();
  const toast = useToast();
  const [update, { isLoading }] = useUpdateAssessmentMutation();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, dirtyFields },
  } = useForm<AssessmentDetailsValues>({
    resolver: zodResolver(assessmentDetailsSchema),
    defaultValues: {
      title: assessment.title,
      description: assessment.description,
      topic: assessment.topic,
      standard: assessment.standard,
      dueDate: toDateTimeLocal(assessment.dueDate),
      shuffleQuestions: assessment.shuffleQuestions,
      shuffleOptions: assessment.shuffleOptions,
      reviewShortAnswers: assessment.reviewShortAnswers,
      timeLimitMinutes: assessment.timeLimitSeconds ? String(Math.round(assessment.timeLimitSeconds / 60)) : '',
      opensAt: toDateTimeLocal(assessment.opensAt),
      closesAt: toDateTimeLocal(assessment.closesAt),
      maxAttempts: String(assessment.maxAttempts),
      countedAttempt: assessment.countedAttempt,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const { timeLimitMinutes, maxAttempts, ...fields } = values;
      const body = {
        ...fields,
        maxAttempts: maxAttempts ? Number(maxAttempts) : undefined,
        timeLimitSeconds: dirtyFields.timeLimitMinutes
          ? timeLimitMinutes
            ? Number(timeLimitMinutes) * 60
            : null
          : undefined,
        dueDate: dueDateToSend(values.dueDate),
        // Sent only when changed: the inputs show minutes, and a stored time may have seconds.
        opensAt: dirtyFields.opensAt ? dueDateToSend(values.opensAt ?? '') : undefined,
        closesAt: dirtyFields.closesAt ? dueDateToSend(values.closesAt ?? '') : undefined,
      };
      await update({ id: assessment.id, body }).unwrap();
      // What was saved is the new baseline: a time cleared later is a change from it (and is sent).
      reset(values);
      toast({ title: t('edit.details.updated'), description: t('edit.details.updatedText') });
    } catch (error) {
      toast({
        title: t('edit.updateFailed'),
        description: serverMessageOr(error, t('edit.details.updateFailedText')),
        variant: 'destructive',
      });
    }
  });

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body className="p-4">
        <Card.Title as="h2" className="h5 mb-3">
          {t('edit.details.title')}
        </Card.Title>
        <Form noValidate onSubmit={onSubmit} aria-label={t('edit.details.form')}>
          <TextField
            id="edit-title"
            label={t('edit.details.titleLabel')}
            registration={register('title')}
            error={text(errors.title?.message)}
          />
          <Form.Group className="mb-3" controlId="edit-description">
            <Form.Label>{t('edit.details.description')}</Form.Label>
            <Form.Control as="textarea" rows={2} {...register('description')} />
          </Form.Group>
          <Form.Group className="mb-3" controlId="edit-topic">
            <Form.Label>{t('edit.details.topic')}</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              isInvalid={Boolean(errors.topic)}
              aria-describedby={errors.topic ? 'edit-topic-error' : undefined}
              {...register('topic')}
            />
            {errors.topic && (
              <Form.Control.Feedback type="invalid" id="edit-topic-error">
                {text(errors.topic.message)}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Form.Group className="mb-3" controlId="edit-standard">
            <Form.Label>{t('edit.details.standard')}</Form.Label>
            <Form.Control as="textarea" rows={2} {...register('standard')} />
          </Form.Group>
          <DateTimeGroup
            id="edit-due-date"
            label={t('edit.details.dueDate')}
            hint={t('edit.details.dueDateHint')}
            registration={register('dueDate')}
            error={text(errors.dueDate?.message)}
          />
          <fieldset className="mb-3">
            <legend className="fs-6 mb-1">{t('edit.details.when')}</legend>
            <div className="d-flex flex-wrap gap-3">
              <DateTimeGroup
                id="edit-opens-at"
                label={t('edit.details.opensAt')}
                hint={t('edit.details.opensAtHint')}
                registration={register('opensAt')}
                error={text(errors.opensAt?.message)}
              />
              <DateTimeGroup
                id="edit-closes-at"
                label={t('edit.details.closesAt')}
                hint={t('edit.details.closesAtHint')}
                registration={register('closesAt')}
                error={text(errors.closesAt?.message)}
              />
            </div>
          </fieldset>
          <Form.Group className="mb-3" controlId="edit-time-limit" style={{ maxWidth: '20rem' }}>
            <Form.Label>{t('edit.details.timeLimit')}</Form.Label>
            <Form.Control
              inputMode="numeric"
              isInvalid={Boolean(errors.timeLimitMinutes)}
              aria-describedby={
                errors.timeLimitMinutes ? 'edit-time-limit-hint edit-time-limit-error' : 'edit-time-limit-hint'
              }
              {...register('timeLimitMinutes')}
            />
            <Form.Text id="edit-time-limit-hint">{t('edit.details.timeLimitHint')}</Form.Text>
            {errors.timeLimitMinutes && (
              <Form.Control.Feedback type="invalid" id="edit-time-limit-error">
                {text(errors.timeLimitMinutes.message)}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <fieldset className="mb-3" aria-describedby="edit-attempts-hint">
            <legend className="fs-6 mb-1">{t('edit.details.retakes')}</legend>
            <div className="d-flex flex-wrap gap-3">
              <Form.Group controlId="edit-max-attempts">
                <Form.Label>{t('edit.details.attempts')}</Form.Label>
                <Form.Select {...register('maxAttempts')}>
                  {Array.from({ length: 10 }, (_, i) => String(i + 1)).map((n) => (
                    <option key={n} value={n}>
                      {n === '1' ? t('edit.details.noRetake') : n}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <Form.Group controlId="edit-counted-attempt">
                <Form.Label>{t('edit.details.counts')}</Form.Label>
                <Form.Select {...register('countedAttempt')}>
                  <option value="latest">{t('edit.details.latest')}</option>
                  <option value="best">{t('edit.details.best')}</option>
                </Form.Select>
              </Form.Group>
            </div>
            <Form.Text id="edit-attempts-hint">{t('edit.details.attemptsHint')}</Form.Text>
          </fieldset>
          <fieldset className="mb-3" aria-describedby="edit-shuffle-hint">
            <legend className="fs-6 mb-1">{t('edit.details.order')}</legend>
            <Form.Check
              id="edit-shuffle-questions"
              label={t('edit.details.shuffleQuestions')}
              {...register('shuffleQuestions')}
            />
            <Form.Check
              id="edit-shuffle-options"
              label={t('edit.details.shuffleOptions')}
              {...register('shuffleOptions')}
            />
            <Form.Text id="edit-shuffle-hint">{t('edit.details.shuffleHint')}</Form.Text>
          </fieldset>
          <fieldset className="mb-3" aria-describedby="edit-review-hint">
            <legend className="fs-6 mb-1">{t('edit.details.shortAnswers')}</legend>
            <Form.Check
              id="edit-review-short-answers"
              label={t('edit.details.review')}
              {...register('reviewShortAnswers')}
            />
            <Form.Text id="edit-review-hint">{t('edit.details.reviewHint')}</Form.Text>
          </fieldset>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? t('edit.details.saving') : t('edit.details.save')}
          </Button>
        </Form>
      </Card.Body>
    </Card>
  );
}

/** A date and time input with its hint and its error (both read with it). */
function DateTimeGroup({
  id,
  label,
  hint,
  registration,
  error,
}: {
  id: string;
  label: string;
  hint: string;
  registration: UseFormRegisterReturn;
  error: string | undefined;
}) {
  return (
    <Form.Group className="mb-3" controlId={id} style={{ maxWidth: '20rem' }}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="datetime-local"
        isInvalid={Boolean(error)}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        {...registration}
      />
      <Form.Text id={`${id}-hint`}>{hint}</Form.Text>
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

interface ItemProps {
  question: Question;
  index: number;
  count: number;
  /** Students have submitted: no adding, duplicating or deleting. */
  locked: boolean;
  /** A class's copy of a district common assessment: its questions cannot change at all. */
  frozen: boolean;
  canAdd: boolean;
  onMove: (index: number, by: -1 | 1) => void;
  moving: boolean;
  /** The assessment's standards: their statements describe the questions' code chips. */
  assessmentStandards: readonly StandardRef[];
}

function QuestionItem({
  question,
  index,
  count,
  locked,
  frozen,
  canAdd,
  onMove,
  moving,
  assessmentStandards,
}: ItemProps) {
  const { t } = useTranslation('assessments');
  const aligned = standardsOf(question, assessmentStandards);
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [update, updateState] = useUpdateQuestionMutation();
  const [remove, removeState] = useDeleteQuestionMutation();
  const [duplicate, duplicateState] = useDuplicateQuestionMutation();
  const n = index + 1;

  const copy = async () => {
    try {
      await duplicate(question.id).unwrap();
      toast({ title: t('edit.question.duplicated'), description: t('edit.question.duplicatedText', { n }) });
    } catch (error) {
      toast({
        title: t('edit.question.duplicateFailed'),
        description: serverMessageOr(error, t('edit.question.duplicateFailedText')),
        variant: 'destructive',
      });
    }
  };

  const save = async (values: QuestionEditValues, standards: string[] | undefined) => {
    try {
      await update({
        id: question.id,
        body: { ...questionToSend(values), ...(standards ? { standards } : {}) },
      }).unwrap();
      setEditing(false);
      toast({ title: t('edit.question.updated'), description: t('edit.question.updatedText') });
    } catch (error) {
      toast({
        title: t('edit.updateFailed'),
        description: serverMessageOr(error, t('edit.question.updateFailedText')),
        variant: 'destructive',
      });
    }
  };

  const destroy = async () => {
    try {
      await remove(question.id).unwrap();
      toast({ title: t('edit.question.deleted'), description: t('edit.question.deletedText') });
    } catch (error) {
      toast({
        title: t('edit.question.deleteFailed'),
        description: serverMessageOr(error, t('edit.question.deleteFailedText')),
        variant: 'destructive',
      });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Card className="shadow-sm mb-3" as="section" aria-label={t('edit.question.label', { n })}>
      {editing ? (
        <Card.Body>
          <h3 className="h6">{t('edit.question.editTitle', { n })}</h3>
          <QuestionEditor
            idPrefix={`question-${question.id}`}
            question={question}
            submitLabel={t('edit.question.save')}
            busy={updateState.isLoading}
            onSubmit={save}
            onCancel={() => setEditing(false)}
          />
        </Card.Body>
      ) : (
        <>
          <ul className="list-group list-group-flush list-unstyled mb-0">
            <QuestionPreview question={question} index={index} />
          </ul>
          {aligned.length > 0 && (
            <Card.Body className="pt-0">
              <StandardChips standards={aligned} label={t('edit.question.standards', { n })} />
            </Card.Body>
          )}
          {!frozen && (
            <Card.Footer className="d-flex flex-wrap gap-2 justify-content-end">
              <Button
                size="sm"
                variant="outline-secondary"
                id={`move-up-${question.id}`}
                aria-label={t('edit.question.moveUp', { n })}
                disabled={index === 0 || moving}
                onClick={() => onMove(index, -1)}
              >
                {t('edit.question.up')}
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                id={`move-down-${question.id}`}
                aria-label={t('edit.question.moveDown', { n })}
                disabled={index === count - 1 || moving}
                onClick={() => onMove(index, 1)}
              >
                {t('edit.question.down')}
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={locked || !canAdd || duplicateState.isLoading}
                onClick={() => void copy()}
              >
                {t('edit.question.duplicate', { n })}
              </Button>
              <Button size="sm" variant="outline-primary" onClick={() => setEditing(true)}>
                {t('edit.question.edit', { n })}
              </Button>
              <Button size="sm" variant="outline-danger" disabled={locked} onClick={() => setConfirming(true)}>
                {t('edit.question.delete', { n })}
              </Button>
              <SaveToBankButton questionId={question.id} n={n} />
            </Card.Footer>
          )}
        </>
      )}
      <Modal show={confirming} onHide={() => setConfirming(false)} aria-labelledby={`delete-q-${question.id}`}>
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={`delete-q-${question.id}`}>{t('edit.question.deleteAsk', { n })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>{t('edit.question.deleteConfirm')}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            {t('cancel')}
          </Button>
          <Button variant="danger" onClick={() => void destroy()} disabled={removeState.isLoading}>
            {t('delete')}
          </Button>
        </Modal.Footer>
      </Modal>
    </Card>
  );
}

function AddQuestion({ assessmentId, count, locked }: { assessmentId: string; count: number; locked: boolean }) {
  const { t } = useTranslation('assessments');
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [add, { isLoading }] = useAddQuestionMutation();
  if (locked) return null;
  if (count >= MAX_QUESTIONS) return <p className="text-body-secondary">{t('edit.add.max')}</p>;
  if (!open) {
    return (
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        {t('edit.add.button')}
      </Button>
    );
  }
  const save = async (values: QuestionEditValues, standards: string[] | undefined) => {
    try {
      await add({
        id: assessmentId,
        body: { ...questionToSend(values), ...(standards ? { standards } : {}) },
      }).unwrap();
      setOpen(false);
      toast({ title: t('edit.add.added'), description: t('edit.add.addedText') });
    } catch (error) {
      toast({
        title: t('edit.updateFailed'),
        description: serverMessageOr(error, t('edit.add.failedText')),
        variant: 'destructive',
      });
    }
  };
  return (
    <Card className="shadow-sm">
      <Card.Body>
        <h3 className="h6">{t('edit.add.title')}</h3>
        <QuestionEditor
          idPrefix="new-question"
          submitLabel={t('edit.add.button')}
          busy={isLoading}
          onSubmit={save}
          onCancel={() => setOpen(false)}
        />
      </Card.Body>
    </Card>
  );
}

interface Move {
  questionId: string;
  direction: 'up' | 'down';
  /** Its place once moved. */
  index: number;
}

export function AssessmentEditPage() {
  const { t } = useTranslation('assessments');
  const { id = '' } = useParams();
  const toast = useToast();
  const assessment = useGetAssessmentQuery(id);
  const questions = useGetQuestionsQuery(id, { skip: !assessment.data });
  const [reorder] = useReorderQuestionsMutation();
  // A move is pending until the list read back shows it: the buttons wait (their labels name
  // positions), then the move is announced and focus goes back to the moved question's button.
  const [pending, setPending] = useState<Move | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<Move | null>(null);
  const list = questions.data ?? [];
  if (pending && list[pending.index]?.id === pending.questionId) {
    focusAfterMove.current = pending;
    setPending(null);
    setAnnouncement(t('edit.moved', { position: pending.index + 1, count: list.length }));
  }

  useEffect(() => {
    const wanted = focusAfterMove.current;
    if (!wanted || pending) return;
    const button = (dir: string) =>
      document.getElementById(`move-${dir}-${wanted.questionId}`) as HTMLButtonElement | null;
    const target = button(wanted.direction);
    const other = button(wanted.direction === 'up' ? 'down' : 'up');
    (target && !target.disabled ? target : other)?.focus();
    focusAfterMove.current = null;
  }, [list, pending]);

  if (assessment.isLoading) return <PageSpinner />;
  if (!assessment.data || isStudentView(assessment.data)) return <AssessmentNotFound />;
  const a = assessment.data;
  // A teacher of a class it is only assigned to reads it; every save here would be refused.
  if (!a.canEdit)
    return (
      <>
        <Link to={`/assessment-preview/${id}`} className="d-inline-block mb-3">
          {t('edit.back')}
        </Link>
        <h1 className="h2 mb-3">{a.title}</h1>
        <ReadOnlyNote assessment={a} />
      </>
    );
  const locked = (a.responseCount ?? 0) > 0;
  const frozen = a.commonAssessmentId != null;

  const move = async (index: number, by: -1 | 1) => {
    const ids = list.map((q) => q.id);
    const [moved] = ids.splice(index, 1);
    if (!moved) return;
    ids.splice(index + by, 0, moved);
    setPending({ questionId: moved, direction: by < 0 ? 'up' : 'down', index: index + by });
    try {
      await reorder({ id, body: { questionIds: ids } }).unwrap();
    } catch (error) {
      setPending(null);
      toast({
        title: t('edit.moveFailed'),
        description: serverMessageOr(error, t('edit.moveFailedText')),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Link to={`/assessment-preview/${id}`} className="d-inline-block mb-3">
        {t('edit.back')}
      </Link>
      <h1 className="h2 mb-2">{t('edit.title')}</h1>
      <p className="d-flex flex-wrap align-items-center gap-2 mb-4">
        <LifecycleBadge assessment={a} />
        <span className="text-body-secondary small">{lifecycleHint(a, t)}</span>
      </p>
      <DetailsForm key={a.id} assessment={a} />
      <h2 className="h4 mb-3">{t('edit.questions', { count: list.length })}</h2>
      {frozen ? (
        <Alert variant="info" data-testid="common-locked">
          {t('edit.common')}
        </Alert>
      ) : (
        locked && <Alert variant="info">{t('edit.locked')}</Alert>
      )}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {questions.isLoading ? (
        <PageSpinner />
      ) : (
        list.map((q, i) => (
          <QuestionItem
            key={q.id}
            question={q}
            index={i}
            count={list.length}
            locked={locked}
            frozen={frozen}
            canAdd={list.length < MAX_QUESTIONS}
            onMove={(index, by) => void move(index, by)}
            moving={pending !== null}
            assessmentStandards={standardsOf(a)}
          />
        ))
      )}
      {!frozen && (
        <div className="d-flex flex-wrap gap-2 align-items-start">
          <AddQuestion assessmentId={id} count={list.length} locked={locked} />
          {!locked && list.length < MAX_QUESTIONS && (
            <AddFromBank assessmentId={id} room={MAX_QUESTIONS - list.length} />
          )}
        </div>
      )}
    </>
  );
}
