// One question as the teacher sees it in previews: text, type, options (any stored shape) and answer.
import Badge from 'react-bootstrap/Badge';
import type { Question } from './assessmentsApi';
import { QUESTION_TYPE_LABELS } from './assessmentSchemas';
import { optionsFor } from './parseOptions';
import { formatNumber } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

export function QuestionPreview({ question, index }: { question: Question; index: number }) {
  const { t } = useTranslation('assessments');
  const points = Number(question.points);
  const options = optionsFor(question.questionType, question.options);
  const correct = question.correctAnswer?.trim().toLowerCase();
  return (
    <li className="list-group-item py-3" data-testid="question-preview">
      <div className="d-flex justify-content-between gap-2">
        <p className="fw-semibold mb-2">
          {index + 1}. {question.questionText}
        </p>
        <Badge bg="light" text="dark" className="align-self-start">
          {question.questionType in QUESTION_TYPE_LABELS ? t(`type.${question.questionType}`) : question.questionType}
        </Badge>
      </div>
      {options.length > 0 && (
        <ol type="A" className="mb-2">
          {options.map((option, i) => {
            const isCorrect = correct !== undefined && option.trim().toLowerCase() === correct;
            return (
              <li key={`${i}-${option}`} className={isCorrect ? 'fw-semibold text-success' : undefined}>
                {option}
                {isCorrect && <span className="visually-hidden">{t('questionPreview.correct')}</span>}
              </li>
            );
          })}
        </ol>
      )}
      {question.correctAnswer !== undefined && (
        <p className="small text-body-secondary mb-0">
          {t('questionPreview.answer', { answer: question.correctAnswer })}
          {question.acceptedAnswers &&
            question.acceptedAnswers.length > 0 &&
            t('questionPreview.alsoAccepted', { answers: question.acceptedAnswers.join(', ') })}
        </p>
      )}
      <p className="small text-body-secondary mb-0">
        {t('questionPreview.points', { count: points, points: formatNumber(points) })}
      </p>
    </li>
  );
}
