// /assessment/{id} (spec §2 Take assessment, §4, §8): one question at a time with progress,
// Previous, Save Progress, Next and Submit Assessment. Answers are kept in the browser (answerStore,
// IndexedDB) so a reload or a lost connection loses nothing; unsent answers go out when back online
// and before submit. The server scores the submission. Teachers may open the page as a read-only
// preview.
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { isRetryableError, isUnauthorizedError, serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import {
  useGetAssessmentQuery,
  useGetQuestionsQuery,
  useGetResponsesQuery,
  useGetResultQuery,
  useSaveResponseMutation,
  useSubmitResultMutation,
  type Question,
  type Result,
} from '../assessments/assessmentsApi';
import { optionsFor } from '../assessments/parseOptions';
import { useAuth } from '../auth/useAuth';
import { navRole } from '../auth/user';
import { AnswerStore, type PendingAnswer } from './answerStore';
import { ResultSummary } from './ResultSummary';

/** Unsent answers that failed to go out for a passing reason are sent again after 2 s, 4 s, … at most 30 s. */
const RESEND_FIRST_DELAY_MS = 2_000;
const RESEND_MAX_DELAY_MS = 30_000;

export function AssessmentNotFoundCard() {
  return (
    <Card className="shadow-sm text-center">
      <Card.Body className="p-5">
        <h1 className="h4">Assessment Not Found</h1>
        <p className="text-body-secondary">
          The assessment you&apos;re looking for doesn&apos;t exist or has been removed.
        </p>
        <Link to="/">Back to Dashboard</Link>
      </Card.Body>
    </Card>
  );
}

function QuestionInput({
  question,
  value,
  onChange,
}: {
  question: Question;
  value: string;
  onChange: (answer: string) => void;
}) {
  const options = optionsFor(question.questionType, question.options);
  if (question.questionType === 'short_answer' || options.length === 0) {
    return (
      <Form.Group controlId={`answer-${question.id}`}>
        <Form.Label>Your answer</Form.Label>
        <Form.Control type="text" value={value} autoComplete="off" onChange={(e) => onChange(e.currentTarget.value)} />
      </Form.Group>
    );
  }
  return (
    <fieldset>
      <legend className="visually-hidden">Answer choices</legend>
      {options.map((option, i) => (
        <Form.Check
          key={`${i}-${option}`}
          type="radio"
          id={`answer-${question.id}-${i}`}
          name={`answer-${question.id}`}
          label={option}
          value={option}
          checked={value === option}
          onChange={() => onChange(option)}
          className="mb-2"
        />
      ))}
    </fieldset>
  );
}

type SavedResponse = { questionId: string; answer: string; clientSeq: number | null };

interface TakeAssessmentProps {
  assessmentId: string;
  userId: string;
  isStudent: boolean;
  title: string;
  description: string;
  questions: Question[];
  savedResponses: SavedResponse[];
}

/**
 * Opens the answers kept in this browser (IndexedDB, read asynchronously) and fills in what the
 * server already holds; null until then. Server responses are merged once, when the store opens.
 */
function useAnswerStore(userId: string, assessmentId: string, savedResponses: SavedResponse[]): AnswerStore | null {
  const [opened, setOpened] = useState<{ key: string; store: AnswerStore } | null>(null);
  const saved = useRef(savedResponses);
  useEffect(() => {
    saved.current = savedResponses;
  });
  const key = `${userId}:${assessmentId}`;
  useEffect(() => {
    let live = true;
    void AnswerStore.open(userId, assessmentId).then((store) => {
      if (!live) return;
      store.mergeServer(saved.current);
      setOpened({ key, store });
    });
    return () => {
      live = false;
    };
  }, [userId, assessmentId, key]);
  return opened?.key === key ? opened.store : null;
}

// The questions render only once the saved answers are read, so that after a reload they are back
// before the student can type.
function TakeAssessment(props: TakeAssessmentProps) {
  const store = useAnswerStore(props.userId, props.assessmentId, props.savedResponses);
  if (!store) return <PageSpinner />;
  return <AnswerSheet {...props} store={store} />;
}

function AnswerSheet({
  assessmentId,
  isStudent,
  title,
  description,
  questions,
  store,
}: TakeAssessmentProps & { store: AnswerStore }) {
  const toast = useToast();
  const [saveResponse] = useSaveResponseMutation();
  const [submitResult, submitState] = useSubmitResultMutation();
  const [answers, setAnswers] = useState<Record<string, string>>(() => store.answers());
  const [index, setIndexState] = useState(() => Math.min(store.index(), Math.max(0, questions.length - 1)));
  const [saving, setSaving] = useState(false);
  const [unsent, setUnsent] = useState(() => store.pending().length);
  const [result, setResult] = useState<Result | null>(null);
  const mounted = useRef(true);

  const send = useCallback(
    async (p: PendingAnswer) => {
      await saveResponse({ assessmentId, questionId: p.questionId, answer: p.answer, clientSeq: p.clientSeq }).unwrap();
    },
    [saveResponse, assessmentId],
  );

  const syncPending = useCallback(async () => {
    const outcome = await store.sync(send);
    if (mounted.current) setUnsent(store.pending().length);
    return outcome;
  }, [store, send]);

  // Unsent answers go out when the page opens online and whenever the connection comes back. A try
  // that fails for a passing reason (the network not really up yet, the server restarting) is
  // tried again, a little later each time, until the answers are in.
  useEffect(() => {
    mounted.current = true;
    if (!isStudent) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = RESEND_FIRST_DELAY_MS;
    const attempt = async () => {
      timer = undefined;
      const outcome = await syncPending();
      if (!mounted.current || outcome.failed === 0 || !navigator.onLine || !isRetryableError(outcome.error)) {
        delay = RESEND_FIRST_DELAY_MS;
        return;
      }
      timer = setTimeout(() => void attempt(), delay);
      delay = Math.min(delay * 2, RESEND_MAX_DELAY_MS);
    };
    if (navigator.onLine && store.pending().length > 0) void attempt();
    const onOnline = () => {
      clearTimeout(timer);
      delay = RESEND_FIRST_DELAY_MS;
      void attempt();
    };
    window.addEventListener('online', onOnline);
    return () => {
      mounted.current = false;
      clearTimeout(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [isStudent, store, syncPending]);

  // Leaving the page (closing it, or a phone switching apps) while a write is still on its way:
  // the answers go to synchronous storage (AnswerStore.keepUnwritten).
  useEffect(() => {
    const keep = () => store.keepUnwritten();
    const onHidden = () => {
      if (document.visibilityState === 'hidden') keep();
    };
    window.addEventListener('pagehide', keep);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      window.removeEventListener('pagehide', keep);
      document.removeEventListener('visibilitychange', onHidden);
    };
  }, [store]);

  const question = questions[index];
  if (!question) return <AssessmentNotFoundCard />;
  if (result) return <ResultSummary result={result} title={title} />;

  const total = questions.length;
  const current = answers[question.id] ?? '';
  const isLast = index === total - 1;

  const setIndex = (next: number) => {
    setIndexState(next);
    store.setIndex(next);
  };

  const onAnswer = (answer: string) => {
    if (isStudent) {
      store.setAnswer(question.id, answer);
      setUnsent(store.pending().length);
    }
    setAnswers((prev) => ({ ...prev, [question.id]: answer }));
  };

  const onSave = async () => {
    setSaving(true);
    try {
      const outcome = await syncPending();
      if (outcome.failed > 0) throw outcome.error;
      toast({ title: 'Progress Saved', description: 'Your answers have been saved.' });
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: 'Error',
          description: 'Failed to save response',
          variant: 'destructive',
        });
      }
    } finally {
      if (mounted.current) setSaving(false);
    }
  };

  const onSubmit = async () => {
    try {
      const outcome = await syncPending();
      if (outcome.failed > 0) throw outcome.error;
      const submitted = await submitResult({ assessmentId }).unwrap();
      store.clear();
      setResult(submitted);
      toast({ title: 'Success', description: 'Assessment submitted successfully!' });
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: 'Error',
          description: serverMessageOr(error, 'Failed to submit assessment'),
          variant: 'destructive',
        });
      }
    }
  };

  const progress = Math.round(((index + 1) / total) * 100);
  return (
    <>
      <h1 className="h2 mb-1">{title}</h1>
      <p className="text-body-secondary">{description || 'Answer all questions and submit when finished'}</p>
      {!isStudent && (
        <Alert variant="info">Preview: answers are not saved or submitted when a teacher opens an assessment.</Alert>
      )}
      <div className="d-flex justify-content-between small mb-1">
        <span>
          Question {index + 1} of {total}
        </span>
        <span>No time limit</span>
      </div>
      <ProgressBar now={progress} className="mb-4" aria-label={`Question ${index + 1} of ${total}`} />
      <Card className="shadow-sm mb-3">
        <Card.Body className="p-4">
          <h2 className="h5 mb-3">{question.questionText}</h2>
          <QuestionInput key={question.id} question={question} value={current} onChange={onAnswer} />
        </Card.Body>
      </Card>
      {isStudent && unsent > 0 && (
        <p className="small text-body-secondary" aria-live="polite">
          {unsent} answer{unsent === 1 ? '' : 's'} kept on this device, not yet sent.
        </p>
      )}
      <div className="d-flex flex-wrap gap-2">
        <Button variant="outline-secondary" onClick={() => setIndex(index - 1)} disabled={index === 0}>
          Previous
        </Button>
        <Button
          variant="outline-primary"
          onClick={() => void onSave()}
          disabled={!isStudent || current.trim() === '' || saving}
        >
          {saving ? 'Saving...' : 'Save Progress'}
        </Button>
        {isLast ? (
          <Button
            variant="success"
            className="ms-auto"
            onClick={() => void onSubmit()}
            disabled={!isStudent || submitState.isLoading}
          >
            {submitState.isLoading ? 'Submitting...' : 'Submit Assessment'}
          </Button>
        ) : (
          <Button className="ms-auto" onClick={() => setIndex(index + 1)}>
            Next
          </Button>
        )}
      </div>
    </>
  );
}

function SubmittedResult({ resultId, title }: { resultId: string; title: string }) {
  const result = useGetResultQuery(resultId);
  if (result.isLoading) return <PageSpinner />;
  if (!result.data) return <AssessmentNotFoundCard />;
  return <ResultSummary result={result.data} title={title} />;
}

export function TakeAssessmentPage() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const isStudent = user ? navRole(user) === 'student' : false;
  const assessment = useGetAssessmentQuery(id);
  const submitted = Boolean(assessment.data?.submitted && assessment.data.resultId);
  const questions = useGetQuestionsQuery(id, { skip: !assessment.data || submitted });
  const responses = useGetResponsesQuery(id, { skip: !isStudent || !assessment.data || submitted });

  if (assessment.isLoading || questions.isLoading || responses.isLoading) return <PageSpinner />;
  if (!assessment.data || !user) return <AssessmentNotFoundCard />;
  if (submitted && assessment.data.resultId) {
    return <SubmittedResult resultId={assessment.data.resultId} title={assessment.data.title} />;
  }
  if (!questions.data || questions.data.length === 0) return <AssessmentNotFoundCard />;
  return (
    <TakeAssessment
      assessmentId={id}
      userId={user.id}
      isStudent={isStudent}
      title={assessment.data.title}
      description={assessment.data.description}
      questions={questions.data}
      savedResponses={responses.data ?? []}
    />
  );
}
