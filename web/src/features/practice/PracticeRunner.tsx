// Practice questions one at a time: answers kept per question (going back restores),
// Next and Submit disabled until the current question is answered, then the score page with retry.
// After a move the new question's heading takes the focus, after submitting the score's heading.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { optionsFor, roundPercent } from '../assessments';
import { NamedProgressBar } from '../../components/NamedProgressBar';
import { useAuth } from '../../session/useAuth';
import { navRole } from '../../session/user';
import {
  MaskedChoice,
  PageAccommodations,
  ReadAloudControls,
  Spoken,
  useMyAccommodations,
  useReadAloud,
  useRevealed,
  type Highlight,
} from '../studentAccommodations';
import { useTranslation } from '../../i18n/react';
import { formatPercent } from '../../i18n/format';

export const MASTERY = 80;
/** The English text (tests); the page shows it in the interface's language. */
export const ANSWER_REQUIRED = 'Please select or provide an answer';

export interface RunnerQuestion {
  /** Key the answer is sent under (question id, or index for result-based practice). */
  key: string;
  question: string;
  type: string;
  options: string[] | string;
}

interface Props {
  title: string;
  reading: string;
  /** Result-based practice shows the reading on the first question only. */
  readingOnFirstOnly: boolean;
  questions: RunnerQuestion[];
  submitLabel: string;
  /** Scores the answers; resolves to the percentage or rejects (the caller toasts). */
  onSubmit: (answers: Record<string, string>) => Promise<number>;
  onRetry?: () => Promise<void> | void;
  passedHeading: string;
  failedHeading: string;
  dashboardPath: string;
  subtitle?: string;
}

function AnswerInput({
  question,
  value,
  onChange,
  required,
  masked,
  isShown,
  onReveal,
  highlight,
}: {
  question: RunnerQuestion;
  value: string;
  onChange: (v: string) => void;
  /** The answer-required message is shown (the student emptied their answer). */
  required: boolean;
  /** Answer masking: each choice hidden until revealed. */
  masked: boolean;
  isShown: (index: number) => boolean;
  onReveal: (index: number) => void;
  /** The word read aloud, when in a choice. */
  highlight: Highlight | null;
}) {
  const options = optionsFor(question.type, question.options);
  const { t } = useTranslation('take');
  if (options.length === 0) {
    return (
      <Form.Group controlId={`practice-${question.key}`}>
        <Form.Label>{t('yourAnswer')}</Form.Label>
        <Form.Control
          type="text"
          value={value}
          autoComplete="off"
          onChange={(e) => onChange(e.currentTarget.value)}
          aria-describedby={required ? 'practice-answer-required' : undefined}
        />
      </Form.Group>
    );
  }
  return (
    <fieldset aria-describedby={required ? 'practice-answer-required' : undefined}>
      <legend className="visually-hidden">{t('answerChoices')}</legend>
      {options.map((option, i) => (
        <MaskedChoice
          key={`${i}-${option}`}
          masked={masked && !isShown(i) && value !== option}
          index={i}
          inputId={`practice-${question.key}-${i}`}
          onReveal={() => onReveal(i)}
        >
          <Form.Check
            type="radio"
            id={`practice-${question.key}-${i}`}
            name={`practice-${question.key}`}
            label={<Spoken text={option} segment={`choice-${i}`} highlight={highlight} />}
            checked={value === option}
            onChange={() => onChange(option)}
            className="mb-2"
          />
        </MaskedChoice>
      ))}
    </fieldset>
  );
}

/** The questions in the order of attempt `round`: the first as given, each retry another. */
export function orderFor<T>(items: readonly T[], round: number): T[] {
  const out = [...items];
  let seed = round * 2654435761;
  for (let i = out.length - 1; i > 0 && round > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  // A shuffle may leave the order as it was: then start one further on.
  return round > 0 && out.every((q, i) => q === items[i]) ? [...out.slice(1), out[0]!] : out;
}

export function PracticeRunner(props: Props) {
  const { t } = useTranslation('take');
  const [round, setRound] = useState(0);
  // A retry asks the questions in another order (answers are kept by question key, not position).
  const questions = useMemo(() => orderFor(props.questions, round), [props.questions, round]);
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  // Questions the student has answered at some point: the answer-required message is for one they
  // emptied again, never for a question they have not touched yet.
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [score, setScore] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const questionHeading = useRef<HTMLHeadingElement>(null);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    questionHeading.current?.focus();
  }, [index]);
  useEffect(() => {
    if (score !== null) resultHeading.current?.focus();
  }, [score]);
  const moveTo = (next: number) => {
    moved.current = true;
    setIndex(next);
  };

  const { user } = useAuth();
  const { accommodations } = useMyAccommodations(user ? navRole(user) === 'student' : false);
  const question = questions[index];
  const reader = useReadAloud(`${round}:${question?.key ?? ''}`);
  const revealed = useRevealed(`${round}:${question?.key ?? ''}`);
  if (!question) return null;

  if (score !== null) {
    const passed = score >= MASTERY;
    return (
      <Card className="shadow-sm text-center" as="section" aria-labelledby="practice-result">
        <Card.Body className="p-5">
          <h1 id="practice-result" className="h3" tabIndex={-1} ref={resultHeading}>
            {passed ? props.passedHeading : props.failedHeading}
          </h1>
          <p className="display-4 fw-bold" data-testid="practice-score">
            {formatPercent(score)}
          </p>
          <p className="text-body-secondary">{passed ? t('practice.mastered') : t('practice.notMastered')}</p>
          <div className="d-flex gap-2 justify-content-center">
            {!passed && (
              <Button
                onClick={() => {
                  void (async () => {
                    await props.onRetry?.();
                    setAnswers({});
                    setTouched(new Set());
                    setIndex(0);
                    setRound((r) => r + 1);
                    setScore(null);
                  })();
                }}
              >
                {t('tryAgain')}
              </Button>
            )}
            <Link className="btn btn-outline-secondary" to={props.dashboardPath}>
              {t('backToDashboard')}
            </Link>
          </div>
        </Card.Body>
      </Card>
    );
  }

  const total = questions.length;
  const value = answers[question.key] ?? '';
  const answered = value.trim().length >= 1;
  const showRequired = !answered && touched.has(question.key);
  const isLast = index === total - 1;
  const showReading = props.reading && (!props.readingOnFirstOnly || index === 0);
  const masked = accommodations.answerMasking;
  // Read aloud: the reading (where shown), the question, then each choice shown.
  const readSegments = () => [
    ...(showReading ? [{ key: 'reading', text: props.reading, prefix: t('practice.readingPrefix') }] : []),
    { key: 'question', text: question.question },
    ...optionsFor(question.type, question.options).flatMap((text, i) =>
      masked && !revealed.isShown(i) && value !== text
        ? []
        : [{ key: `choice-${i}`, text, prefix: t('choicePrefix', { n: i + 1 }) }],
    ),
  ];

  const submit = async () => {
    setBusy(true);
    try {
      setScore(roundPercent(await props.onSubmit(answers)));
    } catch {
      // The caller showed the error toast.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageAccommodations accommodations={accommodations} />
      <h1 className="h2 mb-1">{props.title}</h1>
      {props.subtitle && <p className="text-body-secondary">{props.subtitle}</p>}
      <div className="d-flex justify-content-between small mb-1">
        <span>{t('questionOf', { n: index + 1, total })}</span>
      </div>
      <NamedProgressBar
        percent={((index + 1) / total) * 100}
        className="mb-4"
        name={t('practice.progress', { n: index + 1, total })}
      />
      {showReading && (
        <Card className="shadow-sm mb-3" as="section" aria-label={t('practice.readingMaterial')}>
          <Card.Body>
            <h2 className="h5">{t('practice.reading')}</h2>
            <div style={{ whiteSpace: 'pre-wrap' }}>
              <Spoken text={props.reading} segment="reading" highlight={reader.highlight} />
            </div>
          </Card.Body>
        </Card>
      )}
      <Card className="shadow-sm mb-3">
        <Card.Body className="p-4">
          <h2 className="h5 mb-3" tabIndex={-1} ref={questionHeading}>
            <span className="visually-hidden">{t('questionN', { n: index + 1 })}</span>{' '}
            <Spoken text={question.question} segment="question" highlight={reader.highlight} />
          </h2>
          {accommodations.readAloud && (
            <ReadAloudControls reader={reader} what={t('questionLower', { n: index + 1 })} segments={readSegments} />
          )}
          <AnswerInput
            key={question.key}
            question={question}
            value={value}
            onChange={(v) => {
              setAnswers((prev) => ({ ...prev, [question.key]: v }));
              setTouched((prev) => (prev.has(question.key) ? prev : new Set(prev).add(question.key)));
            }}
            required={showRequired}
            masked={masked}
            isShown={revealed.isShown}
            onReveal={revealed.reveal}
            highlight={reader.highlight}
          />
          {showRequired && (
            <p id="practice-answer-required" className="small text-body-secondary mt-2 mb-0">
              {t('practice.answerRequired')}
            </p>
          )}
        </Card.Body>
      </Card>
      <div className="d-flex gap-2">
        <Button variant="outline-secondary" disabled={index === 0} onClick={() => moveTo(index - 1)}>
          {t('previous')}
        </Button>
        {isLast ? (
          <Button className="ms-auto" variant="success" disabled={!answered || busy} onClick={() => void submit()}>
            {busy ? t('submitting') : props.submitLabel}
          </Button>
        ) : (
          <Button className="ms-auto" disabled={!answered} onClick={() => moveTo(index + 1)}>
            {t('next')}
          </Button>
        )}
      </div>
    </>
  );
}
