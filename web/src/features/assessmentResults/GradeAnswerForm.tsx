// The teacher's mark of one answer of a result (PATCH /api/results/{resultId}/responses/{questionId}):
// right (all its points), wrong (none) or any part of its points, with optional feedback that the
// student sees. The result's score and level follow on the server (one rule, scoring.ts).
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { serverMessageOr } from '../../api/apiError';
import { useRegradeResponseMutation } from '../assessments';
import { useTranslation } from '../../i18n/react';

export interface GradableAnswer {
  questionId: string;
  /** Numeric string: the question's points. */
  points: string;
  /** Numeric string: what it earns now (null while it waits for review). */
  earnedPoints: string | null;
  feedback: string | null;
}

export function GradeAnswerForm({
  resultId,
  answer,
  label,
}: {
  resultId: string;
  answer: GradableAnswer;
  /** Names the answer for assistive technology (e.g. "Q2 of Ada Adams"). */
  label: string;
}) {
  const { t } = useTranslation('results');
  const id = useId();
  const [points, setPoints] = useState(answer.earnedPoints ?? '');
  const [feedback, setFeedback] = useState(answer.feedback ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [regrade, { isLoading }] = useRegradeResponseMutation();
  const max = Number(answer.points);

  const save = async (earned: string) => {
    setError(null);
    setSaved(false);
    const earnedPoints = Number(earned);
    if (earned.trim() === '' || !Number.isFinite(earnedPoints) || earnedPoints < 0 || earnedPoints > max) {
      setError(t('grade.pointsRange', { max: answer.points }));
      return;
    }
    try {
      await regrade({ resultId, questionId: answer.questionId, body: { earnedPoints, feedback } }).unwrap();
      setPoints(earned);
      setSaved(true);
    } catch (e) {
      setError(serverMessageOr(e, t('grade.markFailed')));
    }
  };

  return (
    <Form
      className="mt-2"
      aria-label={t('grade.formLabel', { label })}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save(points);
      }}
    >
      <div className="d-flex flex-wrap align-items-end gap-2">
        <Form.Group controlId={`${id}-points`}>
          <Form.Label className="small mb-0">{t('grade.points', { max: answer.points })}</Form.Label>
          <Form.Control
            type="number"
            size="sm"
            min={0}
            max={max}
            step="any"
            value={points}
            onChange={(e) => setPoints(e.target.value)}
            isInvalid={error !== null}
            aria-describedby={error ? `${id}-error` : undefined}
            style={{ width: '7rem' }}
          />
        </Form.Group>
        <Button size="sm" variant="outline-success" disabled={isLoading} onClick={() => void save(answer.points)}>
          {t('grade.markRight')}
        </Button>
        <Button size="sm" variant="outline-danger" disabled={isLoading} onClick={() => void save('0')}>
          {t('grade.markWrong')}
        </Button>
      </div>
      <Form.Group controlId={`${id}-feedback`} className="mt-2">
        <Form.Label className="small mb-0">{t('grade.feedback')}</Form.Label>
        <Form.Control
          as="textarea"
          rows={2}
          size="sm"
          maxLength={5000}
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        />
      </Form.Group>
      <div className="d-flex align-items-center gap-2 mt-2">
        <Button size="sm" type="submit" disabled={isLoading}>
          {isLoading ? t('grade.saving') : t('grade.saveMark')}
        </Button>
        {saved && (
          <span className="small text-success" role="status">
            {t('grade.saved')}
          </span>
        )}
        {error && (
          <span id={`${id}-error`} className="small text-danger" role="alert">
            {error}
          </span>
        )}
      </div>
    </Form>
  );
}
