// /assessment/{id}, the taking page: one question at a time with progress, a
// navigator, Previous, Save Progress, Next and Submit Assessment (after a confirm that lists the
// unanswered questions). Answers are kept in the browser (answerStore, IndexedDB) so a reload or a
// lost connection loses nothing, and saved to the server as the student answers (autosaver: after a
// pause, on every move, on leaving); Save Progress sends at once. The server scores the submission.
// Teachers may open the page as a read-only preview, or try it as a student would at
// /assessment-try/{id} (TryAsStudentPage): the same page, its questions without keys, the answers
// kept in memory only, and Submit scored by the server without storing anything.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { isUnauthorizedError, serverMessageOr } from '../../api/apiError';
import { NamedProgressBar } from '../../components/NamedProgressBar';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import {
  isStudentView,
  useGetAssessmentQuery,
  useGetQuestionsQuery,
  useGetResponsesQuery,
  useGetResultQuery,
  useGetStudentPreviewQuery,
  useSaveResponseMutation,
  useScoreStudentPreviewMutation,
  useSubmitResultMutation,
  type Assessment,
  type Question,
  type Result,
  type SavedResponse,
  type StudentAssessment,
  optionsFor,
} from '../assessments';
import { useAuth } from '../../session/useAuth';
import { navRole } from '../../session/user';
import { AnswerStore, type PendingAnswer } from './answerStore';
import {
  closedCode,
  isAlreadySubmittedError,
  isAttemptNotStartedError,
  isClosedError,
  type ClosedCode,
} from './assessmentClosed';
import {
  MaskedChoice,
  NO_ACCOMMODATIONS,
  PageAccommodations,
  ReadAloudControls,
  Spoken,
  useMyAccommodations,
  useReadAloud,
  useRevealed,
  type Accommodations,
  type Highlight,
} from '../studentAccommodations';
import { clockText, useTimeLeft } from './timeLeft';
import { TimeAnnouncer } from './TimeAnnouncer';
import { QuestionNavigator } from './QuestionNavigator';
import { ResultSummary, type SummaryResult } from './ResultSummary';
import { SaveStatusLine } from './SaveStatusLine';
import { useAutosave } from './useAutosave';
import { formatDateTime } from '../../i18n/format';
import { i18n } from '../../i18n/i18n';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';

// The confirm (react-bootstrap's Modal, ~10 KB) loads once the student is near Submit, not with the page.
const loadSubmitConfirm = () => import('./SubmitConfirmModal');
const SubmitConfirmModal = lazy(() => loadSubmitConfirm().then((m) => ({ default: m.SubmitConfirmModal })));

export function AssessmentNotFoundCard() {
  const { t } = useTranslation('take');
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h1 className="h4">{t('notFound.title')}</h1>
        <p className="text-body-secondary">{t('notFound.text')}</p>
        <Link to="/">{t('backToDashboard')}</Link>
      </Card.Body>
    </Card>
  );
}

/** The keys (take namespace) of each closed card's heading and text. */
const CLOSED_TEXT: Record<ClosedCode, { heading: string; text: string }> = {
  assessment_inactive: { heading: 'closed.closedTitle', text: 'closed.inactive' },
  assessment_closed: { heading: 'closed.closedTitle', text: 'closed.closed' },
  time_up: { heading: 'closed.timeUpTitle', text: 'closed.timeUp' },
  assessment_not_open: { heading: 'closed.notOpenTitle', text: 'closed.notOpen' },
};

/** Shown instead of the questions when it cannot be taken: closed by the teacher or by its close time, or not open yet. */
export function AssessmentClosedCard({
  focusHeading = false,
  code = 'assessment_inactive',
}: {
  focusHeading?: boolean;
  code?: ClosedCode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { t } = useTranslation('take');
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  const { heading: title, text } = CLOSED_TEXT[code];
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h1 className="h4" tabIndex={-1} ref={heading}>
          {t(title)}
        </h1>
        <p className="text-body-secondary">{t(text)}</p>
        <Link to="/">{t('backToDashboard')}</Link>
      </Card.Body>
    </Card>
  );
}

/** A question's choices as shown (empty: a typed answer). */
const choicesOf = (question: Question) =>
  question.questionType === 'short_answer' ? [] : optionsFor(question.questionType, question.options);

function QuestionInput({
  question,
  value,
  onChange,
  masked = false,
  isShown = () => true,
  onReveal = () => {},
  highlight = null,
}: {
  question: Question;
  value: string;
  onChange: (answer: string) => void;
  /** Answer masking: each choice hidden until revealed (isShown, onReveal). */
  masked?: boolean;
  isShown?: (index: number) => boolean;
  onReveal?: (index: number) => void;
  /** The word read aloud, when in a choice. */
  highlight?: Highlight | null;
}) {
  const options = choicesOf(question);
  const { t } = useTranslation('take');
  if (question.questionType === 'short_answer' || options.length === 0) {
    return (
      <Form.Group controlId={`answer-${question.id}`}>
        <Form.Label>{t('yourAnswer')}</Form.Label>
        <Form.Control type="text" value={value} autoComplete="off" onChange={(e) => onChange(e.currentTarget.value)} />
      </Form.Group>
    );
  }
  return (
    <fieldset>
      <legend className="visually-hidden">{t('answerChoices')}</legend>
      {options.map((option, i) => (
        <MaskedChoice
          key={`${i}-${option}`}
          masked={masked && !isShown(i) && value !== option}
          index={i}
          inputId={`answer-${question.id}-${i}`}
          onReveal={() => onReveal(i)}
        >
          <Form.Check
            type="radio"
            id={`answer-${question.id}-${i}`}
            name={`answer-${question.id}`}
            label={<Spoken text={option} segment={`choice-${i}`} highlight={highlight} />}
            value={option}
            checked={value === option}
            onChange={() => onChange(option)}
            className="mb-2"
          />
        </MaskedChoice>
      ))}
    </fieldset>
  );
}

const NO_RESPONSES: SavedResponse[] = [];

/**
 * Opens the answers kept in this browser (IndexedDB, read asynchronously, at the same time as the
 * page's requests) and fills in what the server already holds, once both are there; null until
 * then. `saved` is undefined while the server's answers are on their way.
 */
function useAnswerStore(userId: string, assessmentId: string, saved: SavedResponse[] | undefined): AnswerStore | null {
  const key = `${userId}:${assessmentId}`;
  const [opened, setOpened] = useState<{ key: string; store: AnswerStore } | null>(null);
  const [merged, setMerged] = useState<AnswerStore | null>(null);
  useEffect(() => {
    if (!userId || !assessmentId) return;
    let live = true;
    void AnswerStore.open(userId, assessmentId).then((store) => {
      if (live) setOpened({ key, store });
    });
    return () => {
      live = false;
    };
  }, [userId, assessmentId, key]);
  const store = opened?.key === key ? opened.store : null;
  useEffect(() => {
    if (!store || saved === undefined || merged === store) return;
    store.mergeServer(saved);
    setMerged(store);
  }, [store, saved, merged]);
  return store && merged === store ? store : null;
}

/** A date and time as the page writes it; undefined for none or not a date. */
function shownTime(iso: string | null | undefined): { at: number; text: string } | undefined {
  const date = iso ? new Date(iso) : undefined;
  if (!date || Number.isNaN(date.getTime())) return undefined;
  return { at: date.getTime(), text: formatDateTime(date, { dateStyle: 'medium', timeStyle: 'short' }) };
}

function dueText(dueDate: string | null | undefined, now: number): string {
  const due = shownTime(dueDate);
  if (!due) return '';
  return due.at < now ? i18n.t('take:pastDue', { date: due.text }) : i18n.t('take:due', { date: due.text });
}

/** When answers stop being saved, for the student to plan by (the server's clock decides). */
function closesText(closesAt: string | null | undefined): string {
  const closes = shownTime(closesAt);
  return closes ? i18n.t('take:closes', { date: closes.text }) : '';
}

interface AnswerSheetProps {
  assessmentId: string;
  isStudent: boolean;
  title: string;
  closesAt?: string | null | undefined;
  /** A timed attempt: its limit, and the seconds left when the server was last asked. */
  timeLimitSeconds?: number | null | undefined;
  secondsLeft?: number | null | undefined;
  description: string;
  dueDate: string | null;
  questions: Question[];
  store: AnswerStore;
  onSubmitted: (result: Result) => void;
  onClosed: (code: ClosedCode) => void;
  /** Submitted meanwhile on another device or tab: the page shows that result instead. */
  onSubmittedElsewhere: () => void;
  /**
   * A time limit set while the student was answering: their attempt starts when the questions are
   * read again (the server's clock), and the time left is asked for.
   */
  onAttemptNotStarted?: () => Promise<void>;
  /** The student's accommodations (read aloud, text, contrast, guide, masking); none for a teacher. */
  accommodations?: Accommodations;
  /** The teacher's try: Submit scores these answers without storing them (nothing is sent before). */
  tryScore?: (answers: { questionId: string; answer: string }[]) => Promise<void>;
}

function AnswerSheet({
  assessmentId,
  isStudent,
  title,
  description,
  dueDate,
  closesAt,
  timeLimitSeconds,
  secondsLeft,
  questions,
  store,
  onSubmitted,
  onClosed,
  onSubmittedElsewhere,
  onAttemptNotStarted,
  accommodations = NO_ACCOMMODATIONS,
  tryScore,
}: AnswerSheetProps) {
  // A student answers and submits; a teacher trying it does too, with nothing saved.
  const interactive = isStudent || tryScore !== undefined;
  const { t } = useTranslation('take');
  const toast = useToast();
  const [saveResponse] = useSaveResponseMutation();
  const [submitResult] = useSubmitResultMutation();
  const [answers, setAnswers] = useState<Record<string, string>>(() => store.answers());
  const [index, setIndexState] = useState(() => Math.min(store.index(), Math.max(0, questions.length - 1)));
  const [saving, setSaving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // When the time runs out the page submits what was saved (the server takes the submit after the
  // deadline; it refuses further answers).
  const timeLeft = useTimeLeft(isStudent ? secondsLeft : null);
  const submitWhenTimeUp = useRef<() => void>(() => {});
  const submittedAtTimeUp = useRef(false);
  useEffect(() => {
    if (timeLeft !== 0 || submittedAtTimeUp.current) return;
    submittedAtTimeUp.current = true;
    submitWhenTimeUp.current();
  }, [timeLeft]);
  /** The confirm stays mounted once opened (its closing animation runs after `confirming` is false). */
  const [confirmUsed, setConfirmUsed] = useState(false);
  /** The question the confirm's "Go to question N" leads to, once the dialog has closed. */
  const [goingTo, setGoingTo] = useState<number | null>(null);
  const [now] = useState(() => Date.now());
  const heading = useRef<HTMLHeadingElement>(null);
  const focusOnMove = useRef(false);

  const send = useCallback(
    async (p: PendingAnswer) => {
      const save = () =>
        saveResponse({ assessmentId, questionId: p.questionId, answer: p.answer, clientSeq: p.clientSeq }).unwrap();
      try {
        await save();
      } catch (error) {
        if (!onAttemptNotStarted || !isAttemptNotStartedError(error)) throw error;
        await onAttemptNotStarted();
        await save();
      }
    },
    [saveResponse, assessmentId, onAttemptNotStarted],
  );
  const { saver, state } = useAutosave({
    store,
    send,
    enabled: isStudent,
    onRefused: (error) => {
      const code = closedCode(error);
      if (code) onClosed(code);
      else if (isAlreadySubmittedError(error)) onSubmittedElsewhere();
    },
  });

  // After a move the new question's heading takes the focus, so that it is read out (and Tab goes
  // on into its answers) instead of the focus staying on the button pressed.
  useEffect(() => {
    if (!focusOnMove.current) return;
    focusOnMove.current = false;
    heading.current?.focus();
  }, [index]);

  const onLast = index === questions.length - 1;
  useEffect(() => {
    if (onLast && interactive) void loadSubmitConfirm();
  }, [onLast, interactive]);

  const question = questions[index];
  const reader = useReadAloud(question?.id ?? '');
  const revealed = useRevealed(question?.id ?? '');
  if (!question) return <AssessmentNotFoundCard />;
  const masked = accommodations.answerMasking;
  // Read aloud: the question, then each choice shown (a masked one once revealed).
  const readSegments = () => [
    { key: 'question', text: question.questionText },
    ...choicesOf(question).flatMap((text, i) =>
      masked && !revealed.isShown(i) && answers[question.id] !== text
        ? []
        : [{ key: `choice-${i}`, text, prefix: t('choicePrefix', { n: i + 1 }) }],
    ),
  ];

  const total = questions.length;
  const current = answers[question.id] ?? '';
  const isLast = index === total - 1;
  const answered = questions.map((q) => (answers[q.id] ?? '').trim() !== '');
  const unanswered = questions.flatMap((q, i) => (answered[i] ? [] : [{ index: i, text: q.questionText }]));
  const due = dueText(dueDate, now);

  const goTo = (next: number) => {
    // A move sends what waits for the pause at once.
    if (isStudent && store.pending().length > 0) void saver.flush();
    if (next === index) {
      heading.current?.focus();
      return;
    }
    focusOnMove.current = true;
    setIndexState(next);
    store.setIndex(next);
  };

  const onAnswer = (answer: string) => {
    if (interactive) store.setAnswer(question.id, answer);
    if (isStudent) saver.changed();
    setAnswers((prev) => ({ ...prev, [question.id]: answer }));
  };

  const onSave = async () => {
    if (!isStudent) {
      toast({ title: t('toast.preview'), description: t('toast.previewNothingSaved') });
      return;
    }
    setSaving(true);
    try {
      const outcome = await saver.flush();
      if (outcome.failed === 0) {
        toast({ title: t('toast.saved'), description: t('toast.savedDescription') });
      } else if (!navigator.onLine) {
        toast({
          title: t('toast.savedOnDevice'),
          description: t('toast.savedOnDeviceDescription'),
        });
      } else if (!isUnauthorizedError(outcome.error) && !isClosedError(outcome.error)) {
        toast({ title: t('common:toast.error'), description: t('toast.saveFailed'), variant: 'destructive' });
      }
    } finally {
      setSaving(false);
    }
  };

  const onSubmit = async ({ timeUp = false } = {}) => {
    setSubmitting(true);
    if (tryScore) {
      try {
        await tryScore(
          questions.map((q) => ({ questionId: q.id, answer: answers[q.id] ?? '' })).filter((a) => a.answer !== ''),
        );
      } catch (error) {
        setSubmitting(false);
        setConfirming(false);
        if (!isUnauthorizedError(error))
          toast({
            title: t('common:toast.error'),
            description: serverMessageOr(error, t('toast.scoreFailed')),
            variant: 'destructive',
          });
      }
      return;
    }
    try {
      const outcome = await saver.flush();
      // At the deadline what was not saved in time is refused; what was saved is submitted.
      if (outcome.failed > 0 && !(timeUp && closedCode(outcome.error) === 'time_up')) throw outcome.error;
      const submitted = await submitResult({ assessmentId }).unwrap();
      store.clear();
      toast({ title: t('toast.success'), description: t('toast.submitted') });
      onSubmitted(submitted);
    } catch (error) {
      setSubmitting(false);
      setConfirming(false);
      const code = closedCode(error);
      if (code) {
        onClosed(code);
      } else if (isAlreadySubmittedError(error)) {
        onSubmittedElsewhere();
      } else if (!navigator.onLine) {
        toast({
          title: t('common:toast.error'),
          description: t('toast.offline'),
          variant: 'destructive',
        });
      } else if (!isUnauthorizedError(error)) {
        toast({
          title: t('common:toast.error'),
          description: serverMessageOr(error, t('toast.submitFailed')),
          variant: 'destructive',
        });
      }
    }
  };
  submitWhenTimeUp.current = () => void onSubmit({ timeUp: true });

  const progress = Math.round(((index + 1) / total) * 100);
  return (
    <>
      <PageAccommodations accommodations={accommodations} />
      <h1 className="h2 mb-1">{title}</h1>
      <p className="text-body-secondary">{description || t('defaultDescription')}</p>
      {!interactive && (
        // Bootstrap's alert markup: react-bootstrap's Alert brings its close button and transitions (~5 KB).
        <div className="alert alert-info">{t('teacherPreview')}</div>
      )}
      <div className="d-flex flex-wrap justify-content-between gap-2 small mb-1">
        <span>{t('questionOf', { n: index + 1, total })}</span>
        <span className="d-flex flex-wrap gap-3">
          {due && <span data-testid="due-date">{due}</span>}
          {closesAt && <span data-testid="closes-at">{closesText(closesAt)}</span>}
          {timeLimitSeconds ? (
            <>
              <span role="timer" aria-label={t('timeLeftLabel')} data-testid="time-left">
                {timeLeft === null
                  ? t('timeLimit', { time: clockText(timeLimitSeconds) })
                  : t('timeLeft', { time: clockText(timeLeft) })}
              </span>
              <TimeAnnouncer timeLeft={timeLeft} />
            </>
          ) : (
            <span>{t('noTimeLimit')}</span>
          )}
        </span>
      </div>
      <NamedProgressBar name={t('questionOf', { n: index + 1, total })} percent={progress} className="mb-3" />
      <QuestionNavigator total={total} current={index} answered={answered} onGo={goTo} />
      <Card className="shadow-sm mb-3">
        <Card.Body className="p-4">
          <h2 className="h5 mb-3" tabIndex={-1} ref={heading}>
            <span className="visually-hidden">{t('questionN', { n: index + 1 })}</span>{' '}
            <Spoken text={question.questionText} segment="question" highlight={reader.highlight} />
          </h2>
          {accommodations.readAloud && (
            <ReadAloudControls reader={reader} what={t('questionLower', { n: index + 1 })} segments={readSegments} />
          )}
          <QuestionInput
            key={question.id}
            question={question}
            value={current}
            onChange={onAnswer}
            masked={masked}
            isShown={revealed.isShown}
            onReveal={revealed.reveal}
            highlight={reader.highlight}
          />
        </Card.Body>
      </Card>
      {isStudent && <SaveStatusLine state={state} />}
      <div className="d-flex flex-wrap gap-2">
        <Button variant="outline-secondary" onClick={() => goTo(index - 1)} disabled={index === 0}>
          {t('previous')}
        </Button>
        <Button
          variant="outline-primary"
          onClick={() => void onSave()}
          disabled={!interactive || current.trim() === '' || saving}
        >
          {saving ? t('saving') : t('save')}
        </Button>
        {isLast ? (
          <Button
            variant="success"
            className="ms-auto"
            onClick={() => {
              setGoingTo(null);
              setConfirmUsed(true);
              setConfirming(true);
            }}
            disabled={!interactive || submitting}
          >
            {submitting ? t('submitting') : t('submit')}
          </Button>
        ) : (
          <Button className="ms-auto" onClick={() => goTo(index + 1)}>
            {t('next')}
          </Button>
        )}
      </div>
      {interactive && confirmUsed && (
        <Suspense fallback={null}>
          <SubmitConfirmModal
            show={confirming}
            total={total}
            unanswered={unanswered}
            submitting={submitting}
            restoreFocus={goingTo === null}
            onSubmit={() => void onSubmit()}
            onCancel={() => setConfirming(false)}
            onGoTo={(i) => {
              setGoingTo(i);
              setConfirming(false);
            }}
            onExited={() => {
              if (goingTo !== null) goTo(goingTo);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

function SubmittedResult({ resultId, title }: { resultId: string; title: string }) {
  const result = useGetResultQuery(resultId);
  if (result.isLoading) return <PageSpinner />;
  if (!result.data) return <AssessmentNotFoundCard />;
  return <ResultSummary result={result.data} title={title} />;
}

/** A student's assessment the server shows but that no longer takes answers (H2's lifecycle). */
function closedForStudent(assessment: Assessment | StudentAssessment): boolean {
  if (isStudentView(assessment)) return !assessment.submitted && !assessment.isActive;
  return assessment.status === 'closed' || !assessment.isActive;
}

export function TakeAssessmentPage() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const isStudent = user ? navRole(user) === 'student' : false;
  // Everything the page needs starts at once: the assessment, its questions, the saved answers and
  // the answers kept in this browser (for an assessment already submitted, the questions and answers
  // are not needed, but waiting to know that would cost a round trip every time).
  const assessment = useGetAssessmentQuery(id);
  const questions = useGetQuestionsQuery(id);
  const responses = useGetResponsesQuery(id, { skip: !isStudent });
  const saved = !isStudent ? NO_RESPONSES : responses.isLoading ? undefined : (responses.data ?? NO_RESPONSES);
  const store = useAnswerStore(user?.id ?? '', id, saved);
  const mine = useMyAccommodations(isStudent);
  const [finished, setFinished] = useState<{ id: string; result: Result; title: string } | null>(null);
  const [closedWhileOpen, setClosedWhileOpen] = useState<{ id: string; code: ClosedCode } | null>(null);
  // A timed attempt starts when the questions are first read, which happens beside the read of the
  // assessment: once they are in, the assessment is asked again for the server's time left.
  const askedForTimeLeft = useRef(false);
  const view = assessment.data;
  const needsTimeLeft =
    isStudent && view && isStudentView(view) && view.timeLimitSeconds !== null && view.secondsLeft === null;
  useEffect(() => {
    if (!needsTimeLeft || !questions.isSuccess || askedForTimeLeft.current) return;
    askedForTimeLeft.current = true;
    void assessment.refetch();
  }, [needsTimeLeft, questions.isSuccess, assessment]);

  const { refetch: refetchQuestions } = questions;
  const { refetch: refetchAssessment } = assessment;
  const startAttempt = useCallback(async () => {
    await refetchQuestions();
    await refetchAssessment();
  }, [refetchQuestions, refetchAssessment]);

  // Just submitted here: the result stays on screen, with the focus on its heading, whatever the
  // refreshed assessment says.
  if (finished?.id === id) return <ResultSummary result={finished.result} title={finished.title} focusHeading />;
  if (closedWhileOpen?.id === id) return <AssessmentClosedCard focusHeading code={closedWhileOpen.code} />;
  if (assessment.isLoading) return <PageSpinner />;
  const refused = closedCode(assessment.error);
  if (refused) return <AssessmentClosedCard code={refused} />;
  if (!assessment.data || !user) return <AssessmentNotFoundCard />;
  const data = assessment.data;
  if (isStudentView(data) && data.submitted && data.resultId) {
    return <SubmittedResult resultId={data.resultId} title={data.title} />;
  }
  if (isStudent && (closedForStudent(data) || isClosedError(questions.error) || isClosedError(responses.error))) {
    return <AssessmentClosedCard />;
  }
  // The accommodations come with the questions (masked choices never show unmasked first).
  if (questions.isLoading || !store || mine.isLoading) return <PageSpinner />;
  if (!questions.data || questions.data.length === 0) return <AssessmentNotFoundCard />;
  return (
    <AnswerSheet
      key={id}
      assessmentId={id}
      isStudent={isStudent}
      title={data.title}
      description={data.description}
      dueDate={data.dueDate}
      closesAt={data.closesAt}
      timeLimitSeconds={isStudentView(data) ? data.timeLimitSeconds : null}
      secondsLeft={isStudentView(data) ? data.secondsLeft : null}
      questions={questions.data}
      store={store}
      onSubmitted={(result) => setFinished({ id, result, title: data.title })}
      onClosed={(code) => setClosedWhileOpen({ id, code })}
      onSubmittedElsewhere={() => void assessment.refetch()}
      onAttemptNotStarted={startAttempt}
      accommodations={mine.accommodations}
    />
  );
}

/** Said on every screen of the teacher's try, above the page as students see it. */
function PreviewBanner({ assessmentId }: { assessmentId: string }) {
  const { t } = useTranslation('take');
  return (
    <div className="alert alert-warning d-flex flex-wrap align-items-center gap-2" role="note">
      <span className="me-auto">{withStrong(t('tryBanner'))}</span>
      <Link to={`/assessment-preview/${assessmentId}`} className="alert-link">
        {t('backToAssessmentBanner')}
      </Link>
    </div>
  );
}

/**
 * /assessment-try/{id}: the class teacher takes the assessment as a student would, on the taking
 * page itself. The questions come without keys (GET …/student-preview); answers live in memory;
 * Submit asks the server for the score (POST …/student-preview/score), which stores nothing.
 */
export function TryAsStudentPage() {
  const { id = '' } = useParams();
  const preview = useGetStudentPreviewQuery(id);
  const { t } = useTranslation('take');
  const [scoreTry] = useScoreStudentPreviewMutation();
  const [attempt, setAttempt] = useState(0);
  const [store, setStore] = useState(() => AnswerStore.inMemory());
  const [scored, setScored] = useState<{ attempt: number; result: SummaryResult } | null>(null);

  const tryScore = useCallback(
    async (answers: { questionId: string; answer: string }[]) => {
      const result = await scoreTry({ id, body: { answers } }).unwrap();
      setScored({ attempt, result });
    },
    [scoreTry, id, attempt],
  );

  if (preview.isLoading) return <PageSpinner />;
  const data = preview.data;
  if (!data) return <AssessmentNotFoundCard />;
  const banner = <PreviewBanner assessmentId={id} />;
  if (data.questions.length === 0)
    return (
      <>
        {banner}
        <AssessmentNotFoundCard />
      </>
    );
  if (scored?.attempt === attempt)
    return (
      <>
        {banner}
        <ResultSummary
          result={scored.result}
          title={data.assessment.title}
          focusHeading
          actions={
            <>
              <Button
                onClick={() => {
                  setStore(AnswerStore.inMemory());
                  setAttempt((n) => n + 1);
                }}
              >
                {t('tryAgain')}
              </Button>
              <Link className="btn btn-outline-secondary" to={`/assessment-preview/${id}`}>
                {t('backToAssessment')}
              </Link>
            </>
          }
        />
      </>
    );
  return (
    <>
      {banner}
      <AnswerSheet
        key={attempt}
        assessmentId={id}
        isStudent={false}
        title={data.assessment.title}
        description={data.assessment.description}
        dueDate={data.assessment.dueDate}
        questions={data.questions}
        store={store}
        onSubmitted={() => {}}
        onClosed={() => {}}
        onSubmittedElsewhere={() => {}}
        tryScore={tryScore}
      />
    </>
  );
}
