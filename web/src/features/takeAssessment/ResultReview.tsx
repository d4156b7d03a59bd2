// Each question of a submitted result under its score: the question, the student's answer, the
// correct one, the points it earned and a mark given as text and icon, never by colour alone; an
// answer waiting for the teacher's review says so, and the teacher's feedback on it shows below.
import Card from 'react-bootstrap/Card';
import type { Result } from '../assessments';
import { useTranslation } from '../../i18n/react';

type ReviewQuestion = NonNullable<Result['questions']>[number];

function MarkIcon({ correct }: { correct: boolean }) {
  return (
    <svg width={16} height={16} viewBox="0 0 16 16" fill="currentColor" aria-hidden="true" focusable="false">
      {correct ? (
        <path d="M13.85 3.65a.75.75 0 0 1 0 1.06l-7.5 7.5a.75.75 0 0 1-1.06 0l-3.5-3.5a.75.75 0 1 1 1.06-1.06L5.82 10.6l6.97-6.96a.75.75 0 0 1 1.06 0z" />
      ) : (
        <path d="M3.72 3.72a.75.75 0 0 1 1.06 0L8 6.94l3.22-3.22a.75.75 0 1 1 1.06 1.06L9.06 8l3.22 3.22a.75.75 0 1 1-1.06 1.06L8 9.06l-3.22 3.22a.75.75 0 0 1-1.06-1.06L6.94 8 3.72 4.78a.75.75 0 0 1 0-1.06z" />
      )}
    </svg>
  );
}

function Mark({ question }: { question: ReviewQuestion }) {
  const { t } = useTranslation('take');
  if (question.pending)
    return (
      <span className="fw-semibold text-nowrap text-body-secondary" data-testid="review-mark">
        {t('review.awaiting')}
      </span>
    );
  const { correct } = question;
  const part = !correct && Number(question.earnedPoints) > 0;
  return (
    <span
      className={`d-inline-flex align-items-center gap-1 fw-semibold text-nowrap ${correct ? 'text-success' : part ? 'text-warning-emphasis' : 'text-danger'}`}
      data-testid="review-mark"
    >
      <MarkIcon correct={correct} />
      {correct ? t('review.correct') : part ? t('review.partly') : t('review.incorrect')}
    </span>
  );
}

export function ResultReview({ questions }: { questions: ReviewQuestion[] }) {
  const { t } = useTranslation('take');
  return (
    <Card className="shadow-sm mt-4" as="section" aria-labelledby="review-heading">
      <Card.Body className="p-4">
        <h2 id="review-heading" className="h5 mb-0">
          {t('review.title')}
        </h2>
        <ol className="list-unstyled mb-0">
          {questions.map((q, i) => {
            const answer = q.answer?.trim() ?? '';
            return (
              <li key={q.questionId} className="border-top mt-3 pt-3" aria-labelledby={`review-q-${q.questionId}`}>
                <div className="d-flex justify-content-between align-items-start gap-3 mb-2">
                  <h3 id={`review-q-${q.questionId}`} className="h6 mb-0">
                    <span className="text-body-secondary">{t('questionN', { n: i + 1 })}</span> {q.questionText}
                  </h3>
                  <Mark question={q} />
                </div>
                <p className="mb-1">
                  <span className="text-body-secondary">{t('review.yourAnswer')}</span>{' '}
                  {answer === '' ? <em>{t('review.noAnswer')}</em> : answer}
                </p>
                <p className="mb-0">
                  <span className="text-body-secondary">{t('review.correctAnswer')}</span> {q.correctAnswer}
                </p>
                <p className="mb-0 small text-body-secondary" data-testid="review-points">
                  {t('review.points', { earned: q.pending ? '—' : q.earnedPoints, points: q.points })}
                </p>
                {q.feedback && (
                  <p className="mb-0 mt-1 border-start border-3 ps-2" data-testid="review-feedback">
                    <span className="text-body-secondary">{t('review.teacherFeedback')}</span> {q.feedback}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      </Card.Body>
    </Card>
  );
}
