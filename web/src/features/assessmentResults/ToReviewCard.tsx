// The short answers of this assessment waiting for the teacher's review (the assessment's "review
// short answers" setting): each with the student's answer and the key, marked right, wrong or with
// part points right here. Until then they earn nothing and the student's score says so.
import Card from 'react-bootstrap/Card';
import { useGetToReviewQuery } from '../assessments';
import { GradeAnswerForm } from './GradeAnswerForm';
import { useTranslation } from '../../i18n/react';

export function ToReviewCard({ assessmentId }: { assessmentId: string }) {
  const { t } = useTranslation('results');
  const { data } = useGetToReviewQuery(assessmentId);
  // Nothing to show when it cannot be read or nothing waits.
  if (!data || data.length === 0) return null;
  return (
    <Card as="section" className="shadow-sm mb-4 border-warning" aria-labelledby="to-review-title">
      <Card.Body>
        <h2 id="to-review-title" className="h5">
          {t('toReview.title', { count: data.length })}
        </h2>
        <p className="small text-body-secondary">{t('toReview.intro')}</p>
        <ol className="list-unstyled mb-0">
          {data.map((item) => {
            const name =
              `${item.student.firstName ?? ''} ${item.student.lastName ?? ''}`.trim() || t('toReview.aStudent');
            return (
              <li
                key={`${item.resultId}-${item.questionId}`}
                className="py-2 border-bottom"
                data-testid="to-review-item"
              >
                <div className="fw-semibold">
                  {name} · {t('questionShort', { position: item.position })}. {item.questionText}
                </div>
                <div className="small">
                  {t('answers.answer')} {item.answer} · {t('answers.key')} {item.correctAnswer}
                  {item.acceptedAnswers.length > 0 &&
                    ` ${t('answers.also', { answers: item.acceptedAnswers.join(', ') })}`}
                </div>
                <GradeAnswerForm
                  resultId={item.resultId}
                  answer={{ questionId: item.questionId, points: item.points, earnedPoints: null, feedback: null }}
                  label={t('grade.answerOf', { question: t('questionShort', { position: item.position }), name })}
                />
              </li>
            );
          })}
        </ol>
      </Card.Body>
    </Card>
  );
}
