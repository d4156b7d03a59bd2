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

function OverallFeedback({ result }: { result: Result }) {
  const id = useId();
  const [text, setText] = useState(result.feedback ?? '');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [save, { isLoading }] = useSetResultFeedbackMutation();
  useEffect(() => setText(result.feedback ?? ''), [result.feedback]);
  return (
    <Form
      noValidate
      aria-label="Feedback on the whole result"
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        save({ id: result.id, body: { feedback: text } })
          .unwrap()
          .then(() => setMessage({ ok: true, text: 'Saved' }))
          .catch((err: unknown) =>
            setMessage({ ok: false, text: serverMessageOr(err, 'Feedback could not be saved') }),
          );
      }}
    >
      <Form.Group controlId={`${id}-overall`}>
        <Form.Label className="fw-semibold">Feedback on the whole result</Form.Label>
        <Form.Control as="textarea" rows={2} maxLength={5000} value={text} onChange={(e) => setText(e.target.value)} />
      </Form.Group>
      <div className="d-flex align-items-center gap-2 mt-2">
        <Button size="sm" type="submit" disabled={isLoading}>
          {isLoading ? 'Saving...' : 'Save feedback'}
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
  const { data: result, error, isLoading } = useGetResultQuery(resultId);
  if (isLoading) return <Spinner animation="border" size="sm" role="status" aria-label="Loading the result" />;
  if (error || !result)
    return <Alert variant="danger">{serverMessageOr(error, 'The result could not be loaded')}</Alert>;
  return (
    <div data-testid={`grade-${resultId}`}>
      <p className="mb-2">
        Score now: <strong>{result.earnedPoints}</strong> / {result.totalPoints} points ({Math.round(result.score)}%)
        {result.pendingReview > 0 && (
          <Badge bg="warning" text="dark" className="ms-2">
            {result.pendingReview} awaiting review
          </Badge>
        )}
      </p>
      <ol className="list-unstyled mb-3">
        {result.questions.map((q) => (
          <li key={q.questionId} className="py-2 border-bottom">
            <div className="fw-semibold">
              Q{q.position}. {q.questionText}
            </div>
            <div className="small">
              Answer: {q.answer?.trim() ? q.answer : <em>No answer</em>} · Key: {q.correctAnswer}
              {q.acceptedAnswers.length > 0 && ` (also: ${q.acceptedAnswers.join(', ')})`} ·{' '}
              {q.pending ? (
                <Badge bg="warning" text="dark">
                  Awaiting review
                </Badge>
              ) : (
                `${q.earnedPoints} / ${q.points} points`
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
              label={`Q${q.position} of ${studentName}`}
            />
          </li>
        ))}
      </ol>
      <OverallFeedback result={result} />
    </div>
  );
}
