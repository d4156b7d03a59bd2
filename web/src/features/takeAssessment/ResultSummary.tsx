// The score, level (as text, not colour only) and practice link after a submission, and below them
// each question with the student's answer and the correct one (the key is theirs once the result
// exists), the teacher's feedback and any answers still waiting for the teacher's review. Just
// after a submit the heading takes the focus, so that the score is read out.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import Card from 'react-bootstrap/Card';
import {
  type Result,
  ResultLevel,
  attemptText,
  NOT_COUNTED_PRACTICE,
  practiceLink,
  resultPracticeLink,
  roundPercent,
  toPercent,
} from '../assessments';
import { formatPercent } from '../../i18n/format';
import { useLabel } from '../../i18n/labels';
import { ResultReview } from './ResultReview';
import { useTranslation } from '../../i18n/react';

/**
 * What the summary shows of a result (a teacher's scored try has these too, and nothing else); only a
 * stored result has an id, which leads to the practice written from it.
 */
export type SummaryResult = Pick<
  Result,
  'assessmentId' | 'score' | 'percentage' | 'performanceLevel' | 'correctAnswers' | 'incorrectAnswers' | 'questions'
> &
  Partial<Pick<Result, 'id' | 'feedback' | 'pendingReview' | 'attempt' | 'maxAttempts' | 'counted' | 'countedAttempt'>>;

export function ResultSummary({
  result,
  title,
  focusHeading = false,
  actions,
}: {
  result: SummaryResult;
  title: string;
  focusHeading?: boolean;
  /** Instead of the practice and dashboard links (the teacher's preview has its own). */
  actions?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const { t } = useTranslation('take');
  const label = useLabel();
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);
  const exact = toPercent(result.score ?? result.percentage);
  const link = practiceLink(result.assessmentId, exact);
  const byResult = result.id ? resultPracticeLink(result.id, 'student') : null;
  const pending = result.pendingReview ?? 0;
  return (
    <>
      <Card className="shadow-sm text-center" as="section" aria-labelledby="result-heading">
        <Card.Body className="p-5">
          <h1
            id="result-heading"
            className="h3"
            tabIndex={-1}
            ref={heading}
            aria-describedby="result-score-line result-level-line"
          >
            {title}
          </h1>
          <p id="result-score-line" className="display-4 fw-bold mb-1" data-testid="result-score">
            {formatPercent(roundPercent(exact))}
          </p>
          <p id="result-level-line" className="mb-3">
            {t('result.level')} <ResultLevel result={result} testId="result-level" />
          </p>
          <p className="text-body-secondary">
            {t('result.counts', { correct: result.correctAnswers, incorrect: result.incorrectAnswers })}
            {pending > 0 && ` · ${t('result.awaiting', { count: pending })}`}
          </p>
          {result.attempt !== undefined &&
            result.maxAttempts !== undefined &&
            result.counted !== undefined &&
            result.countedAttempt !== undefined && (
              <p className="text-body-secondary" data-testid="result-attempt">
                {attemptText({
                  attempt: result.attempt,
                  maxAttempts: result.maxAttempts,
                  counted: result.counted,
                  countedAttempt: result.countedAttempt,
                })}
              </p>
            )}
          {pending > 0 && (
            <p className="small text-body-secondary" data-testid="result-pending">
              {t('result.willReview', { count: pending })}
            </p>
          )}
          {result.feedback && (
            <div className="text-start border rounded p-3 mb-3" data-testid="result-feedback">
              <h2 className="h6">{t('result.feedback')}</h2>
              <p className="mb-0" style={{ whiteSpace: 'pre-wrap' }}>
                {result.feedback}
              </p>
            </div>
          )}
          <div className="d-flex flex-wrap gap-2 justify-content-center">
            {actions ?? (
              <>
                {/* Practice follows the counted attempt (docs/adr/005): an attempt that does not count offers none. */}
                {result.counted === false ? (
                  <p className="small text-body-secondary w-100 mb-0">{label(NOT_COUNTED_PRACTICE)}</p>
                ) : (
                  <>
                    <Link className="btn btn-primary" to={link.to}>
                      {label(link.label)}
                    </Link>
                    {byResult && (
                      <Link className="btn btn-outline-primary" to={byResult.to}>
                        {label(byResult.label)}
                      </Link>
                    )}
                  </>
                )}
                <Link className="btn btn-outline-secondary" to="/">
                  {t('backToDashboard')}
                </Link>
              </>
            )}
          </div>
        </Card.Body>
      </Card>
      {result.questions && result.questions.length > 0 && <ResultReview questions={result.questions} />}
    </>
  );
}
