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

const MAX_QUESTIONS = 20;

function DetailsForm({ assessment }: { assessment: Assessment }) {
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
      toast({ title: 'Assessment Updated', description: 'Your changes have been saved.' });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to update assessment'),
        variant: 'destructive',
      });
    }
  });

  return (
    <Card className="shadow-sm mb-4">
      <Card.Body className="p-4">
        <Card.Title as="h2" className="h5 mb-3">
          Assessment Details
        </Card.Title>
        <Form noValidate onSubmit={onSubmit} aria-label="Assessment details">
          <TextField id="edit-title" label="Title" registration={register('title')} error={errors.title?.message} />
          <Form.Group className="mb-3" controlId="edit-description">
            <Form.Label>Description</Form.Label>
            <Form.Control as="textarea" rows={2} {...register('description')} />
          </Form.Group>
          <Form.Group className="mb-3" controlId="edit-topic">
            <Form.Label>Topic</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              isInvalid={Boolean(errors.topic)}
              aria-describedby={errors.topic ? 'edit-topic-error' : undefined}
              {...register('topic')}
            />
            {errors.topic && (
              <Form.Control.Feedback type="invalid" id="edit-topic-error">
                {errors.topic.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Form.Group className="mb-3" controlId="edit-standard">
            <Form.Label>Standard</Form.Label>
            <Form.Control as="textarea" rows={2} {...register('standard')} />
          </Form.Group>
          <DateTimeGroup
            id="edit-due-date"
            label="Due Date"
            hint="Optional. Shown to students; it does not close the assessment by itself."
            registration={register('dueDate')}
            error={errors.dueDate?.message}
          />
          <fieldset className="mb-3">
            <legend className="fs-6 mb-1">When students may take it</legend>
            <div className="d-flex flex-wrap gap-3">
              <DateTimeGroup
                id="edit-opens-at"
                label="Opens at"
                hint="Optional. Before it, students cannot open it."
                registration={register('opensAt')}
                error={errors.opensAt?.message}
              />
              <DateTimeGroup
                id="edit-closes-at"
                label="Closes at"
                hint="Optional. After it, no answer is saved; what each student saved is submitted for them."
                registration={register('closesAt')}
                error={errors.closesAt?.message}
              />
            </div>
          </fieldset>
          <Form.Group className="mb-3" controlId="edit-time-limit" style={{ maxWidth: '20rem' }}>
            <Form.Label>Time limit (minutes)</Form.Label>
            <Form.Control
              inputMode="numeric"
              isInvalid={Boolean(errors.timeLimitMinutes)}
              aria-describedby={
                errors.timeLimitMinutes ? 'edit-time-limit-hint edit-time-limit-error' : 'edit-time-limit-hint'
              }
              {...register('timeLimitMinutes')}
            />
            <Form.Text id="edit-time-limit-hint">
              Optional; blank for no time limit. Each student&apos;s time starts when they open it; when it runs out,
              what they saved is submitted.
            </Form.Text>
            {errors.timeLimitMinutes && (
              <Form.Control.Feedback type="invalid" id="edit-time-limit-error">
                {errors.timeLimitMinutes.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <fieldset className="mb-3" aria-describedby="edit-attempts-hint">
            <legend className="fs-6 mb-1">Retakes</legend>
            <div className="d-flex flex-wrap gap-3">
              <Form.Group controlId="edit-max-attempts">
                <Form.Label>Attempts allowed</Form.Label>
                <Form.Select {...register('maxAttempts')}>
                  {Array.from({ length: 10 }, (_, i) => String(i + 1)).map((n) => (
                    <option key={n} value={n}>
                      {n === '1' ? '1 (no retake)' : n}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <Form.Group controlId="edit-counted-attempt">
                <Form.Label>Which attempt counts</Form.Label>
                <Form.Select {...register('countedAttempt')}>
                  <option value="latest">The latest</option>
                  <option value="best">The best</option>
                </Form.Select>
              </Form.Group>
            </div>
            <Form.Text id="edit-attempts-hint">
              You grant each retake from the results page; the earlier attempts are kept. Scores, levels and practice
              follow the attempt that counts.
            </Form.Text>
          </fieldset>
          <fieldset className="mb-3" aria-describedby="edit-shuffle-hint">
            <legend className="fs-6 mb-1">Order for each student</legend>
            <Form.Check id="edit-shuffle-questions" label="Shuffle the questions" {...register('shuffleQuestions')} />
            <Form.Check
              id="edit-shuffle-options"
              label="Shuffle the answer options of multiple-choice questions"
              {...register('shuffleOptions')}
            />
            <Form.Text id="edit-shuffle-hint">
              Each student gets an order of their own, the same every time they open it. Scores and results are not
              affected.
            </Form.Text>
          </fieldset>
          <fieldset className="mb-3" aria-describedby="edit-review-hint">
            <legend className="fs-6 mb-1">Short answers</legend>
            <Form.Check
              id="edit-review-short-answers"
              label="Review short answers that do not match the key myself"
              {...register('reviewShortAnswers')}
            />
            <Form.Text id="edit-review-hint">
              A short answer matching neither the key nor an accepted answer waits in your To Review list (on the
              results page) instead of being marked wrong; it earns nothing until you mark it.
            </Form.Text>
          </fieldset>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? 'Saving...' : 'Save Details'}
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
      toast({ title: 'Question Duplicated', description: `A copy of question ${n} was added after it.` });
    } catch (error) {
      toast({
        title: 'Duplicate Failed',
        description: serverMessageOr(error, 'Failed to duplicate question'),
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
      toast({ title: 'Question Updated', description: 'The question has been saved.' });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to update question'),
        variant: 'destructive',
      });
    }
  };

  const destroy = async () => {
    try {
      await remove(question.id).unwrap();
      toast({ title: 'Question Deleted', description: 'The question has been removed.' });
    } catch (error) {
      toast({
        title: 'Delete Failed',
        description: serverMessageOr(error, 'Failed to delete question'),
        variant: 'destructive',
      });
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Card className="shadow-sm mb-3" as="section" aria-label={`Question ${index + 1}`}>
      {editing ? (
        <Card.Body>
          <h3 className="h6">Edit Question {index + 1}</h3>
          <QuestionEditor
            idPrefix={`question-${question.id}`}
            question={question}
            submitLabel="Save Question"
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
              <StandardChips standards={aligned} label={`Standards of question ${n}`} />
            </Card.Body>
          )}
          {!frozen && (
            <Card.Footer className="d-flex flex-wrap gap-2 justify-content-end">
              <Button
                size="sm"
                variant="outline-secondary"
                id={`move-up-${question.id}`}
                aria-label={`Move question ${n} up`}
                disabled={index === 0 || moving}
                onClick={() => onMove(index, -1)}
              >
                ↑ Up
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                id={`move-down-${question.id}`}
                aria-label={`Move question ${n} down`}
                disabled={index === count - 1 || moving}
                onClick={() => onMove(index, 1)}
              >
                ↓ Down
              </Button>
              <Button
                size="sm"
                variant="outline-secondary"
                disabled={locked || !canAdd || duplicateState.isLoading}
                onClick={() => void copy()}
              >
                Duplicate Question {n}
              </Button>
              <Button size="sm" variant="outline-primary" onClick={() => setEditing(true)}>
                Edit Question {n}
              </Button>
              <Button size="sm" variant="outline-danger" disabled={locked} onClick={() => setConfirming(true)}>
                Delete Question {n}
              </Button>
              <SaveToBankButton questionId={question.id} n={n} />
            </Card.Footer>
          )}
        </>
      )}
      <Modal show={confirming} onHide={() => setConfirming(false)} aria-labelledby={`delete-q-${question.id}`}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id={`delete-q-${question.id}`}>Delete question {index + 1}?</Modal.Title>
        </Modal.Header>
        <Modal.Body>This action cannot be undone.</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void destroy()} disabled={removeState.isLoading}>
            Delete
          </Button>
        </Modal.Footer>
      </Modal>
    </Card>
  );
}

function AddQuestion({ assessmentId, count, locked }: { assessmentId: string; count: number; locked: boolean }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [add, { isLoading }] = useAddQuestionMutation();
  if (locked) return null;
  if (count >= MAX_QUESTIONS) return <p className="text-body-secondary">An assessment has at most 20 questions.</p>;
  if (!open) {
    return (
      <Button variant="outline-primary" onClick={() => setOpen(true)}>
        Add Question
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
      toast({ title: 'Question Added', description: 'The question has been added.' });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to add question'),
        variant: 'destructive',
      });
    }
  };
  return (
    <Card className="shadow-sm">
      <Card.Body>
        <h3 className="h6">New Question</h3>
        <QuestionEditor
          idPrefix="new-question"
          submitLabel="Add Question"
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
    setAnnouncement(`Question moved to position ${pending.index + 1} of ${list.length}.`);
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
          ← Back to Preview
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
        title: 'Move Failed',
        description: serverMessageOr(error, 'Failed to move question'),
        variant: 'destructive',
      });
    }
  };

  return (
    <>
      <Link to={`/assessment-preview/${id}`} className="d-inline-block mb-3">
        ← Back to Preview
      </Link>
      <h1 className="h2 mb-2">Edit Assessment</h1>
      <p className="d-flex flex-wrap align-items-center gap-2 mb-4">
        <LifecycleBadge assessment={a} />
        <span className="text-body-secondary small">{lifecycleHint(a)}</span>
      </p>
      <DetailsForm key={a.id} assessment={a} />
      <h2 className="h4 mb-3">Questions ({list.length})</h2>
      {frozen ? (
        <Alert variant="info" data-testid="common-locked">
          This is your district&apos;s common assessment: its questions are locked and cannot be changed. You can still
          change its title, description and due date.
        </Alert>
      ) : (
        locked && (
          <Alert variant="info">
            Students have already submitted this assessment, so its answer keys, points and questions can no longer
            change. You can still correct the wording and the order.
          </Alert>
        )
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
