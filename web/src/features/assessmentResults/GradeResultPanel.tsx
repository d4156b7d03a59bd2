// Grading one student's result by hand: each answer with the key, its mark (right, wrong or part
// points) and feedback, and the teacher's written feedback on the whole result. Everything the
// student sees on their result once saved.
import { useEffect, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import { useGetResultQuery, useSetResultFeedbackMutation, type Result } from '../assessments';
import { GradeAnswerForm } from './GradeAnswerForm';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';
import { formatPercent } from '../../i18n/format';

function OverallFeedback({ result }: { result: Result }) {
  const { t } = useTranslation('results');
  const id = useId();
  const [text, setText] = useState(result.feedback ?? '');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [save, { isLoading }] = useSetResultFeedbackMutation();
  useEffect(() => setText(result.feedback ?? ''), [result.feedback]);
  return (
    <Form
      noValidate
      aria-label={t('grade.overall')}
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        save({ id: result.id, body: { feedback: text } })
          .unwrap()
          .then(() => setMessage({ ok: true, text: t('grade.saved') }))
          .catch((err: unknown) => setMessage({ ok: false, text: serverMessageOr(err, t('grade.feedbackFailed')) }));
      }}
    >
      <Form.Group controlId={`${id}-overall`}>
        <Form.Label className="fw-semibold">{t('grade.overall')}</Form.Label>
        <Form.Control as="textarea" rows={2} maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} />
      </Form.Group>
      <div className="d-flex align-items-center gap-2 mt-2">
        <Button size="sm" type="submit" disabled={isLoading}>
          {isLoading ? t('grade.saving') : t('grade.saveFeedback')}
        </Button>
        {message && (
          <span
            className={`small ${message.ok ? 'text-success' : 'text-danger'}`}
            role={message.ok ? 'status' : 'alert'}
          >
            {message.text}
          </span>
        )}
      </div>
    </Form>
  );
}

export function GradeResultPanel({ resultId, studentName }: { resultId: string; studentName: string }) {
  const { t } = useTranslation('results');
  const { data: result, error, isLoading } = useGetResultQuery(resultId);
  if (isLoading) return <Spinner animation="border" size="sm" role="status" aria-label={t('grade.loading')} />;
  if (error || !result) return <Alert variant="danger">{serverMessageOr(error, t('grade.loadFailed'))}</Alert>;
  return (
    <div data-testid={`grade-${resultId}`}>
      <p className="mb-2">
        {withStrong(
          t('grade.scoreNow', {
            earned: result.earnedPoints,
            total: result.totalPoints,
            percent: formatPercent(result.score),
          }),
        )}
        {result.pendingReview > 0 && (
          <Badge bg="warning" text="dark" className="ms-2">
            {t('items.awaitingReview', { count: result.pendingReview })}
          </Badge>
        )}
      </p>
      <ol className="list-unstyled mb-3">
        {result.questions.map((q) => (
          <li key={q.questionId} className="py-2 border-bottom">
            <div className="fw-semibold">
              {t('questionShort', { position: q.position })}. {q.questionText}
            </div>
            <div className="small">
              {t('answers.answer')} {q.answer?.trim() ? q.answer : <em>{t('answers.none')}</em>} · {t('answers.key')}{' '}
              {q.correctAnswer}
              {q.acceptedAnswers.length > 0 &&
                ` ${t('answers.also', { answers: q.acceptedAnswers.join(', ') })}`} ·{' '}
              {q.pending ? (
                <Badge bg="warning" text="dark">
                  {t('answers.awaitingReview')}
                </Badge>
              ) : (
                t('grade.pointsOf', { earned: q.earnedPoints, total: q.points })
              )}
            </div>
            <GradeAnswerForm
              resultId={result.id}
              answer={{
                questionId: q.questionId,
                points: q.points,
                earnedPoints: q.pending ? null : q.earnedPoints,
                feedback: q.feedback,
              }}
              label={t('grade.answerOf', { question: t('questionShort', { position: q.position }), name: studentName })}
            />
          </li>
        ))}
      </ol>
      <OverallFeedback result={result} />
    </div>
  );
}
