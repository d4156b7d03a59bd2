// One question's edit form (spec §5): text, type, options A–D for multiple choice, correct answer.
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import type { Question, QuestionType } from './assessmentsApi';
import { OPTION_LETTERS, QUESTION_TYPE_LABELS, questionEditSchema, type QuestionEditValues } from './assessmentSchemas';
import { parseOptions } from './parseOptions';

interface Props {
  /** Prefix of the control ids (unique per editor on the page). */
  idPrefix: string;
  question?: Question;
  submitLabel: string;
  busy: boolean;
  onSubmit: (values: QuestionEditValues) => Promise<void> | void;
  onCancel?: () => void;
}

function initialValues(question: Question | undefined): QuestionEditValues {
  const options = parseOptions(question?.options ?? []);
  return {
    questionText: question?.questionText ?? '',
    questionType: question?.questionType ?? 'multiple_choice',
    options: OPTION_LETTERS.map((_, i) => options[i] ?? ''),
    correctAnswer: question?.correctAnswer ?? '',
  };
}

export function QuestionEditor({ idPrefix, question, submitLabel, busy, onSubmit, onCancel }: Props) {
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<QuestionEditValues>({
    resolver: zodResolver(questionEditSchema),
    defaultValues: initialValues(question),
  });
  const type: QuestionType = watch('questionType');
  const submit = handleSubmit(async (values) => onSubmit(values));

  return (
    <Form noValidate onSubmit={submit} aria-label={submitLabel}>
      <Form.Group className="mb-3" controlId={`${idPrefix}-text`}>
        <Form.Label>Question Text</Form.Label>
        <Form.Control
          as="textarea"
          rows={2}
          isInvalid={Boolean(errors.questionText)}
          aria-describedby={errors.questionText ? `${idPrefix}-text-error` : undefined}
          {...register('questionText')}
        />
        {errors.questionText && (
          <Form.Control.Feedback type="invalid" id={`${idPrefix}-text-error`}>
            {errors.questionText.message}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <Form.Group className="mb-3" controlId={`${idPrefix}-type`}>
        <Form.Label>Question Type</Form.Label>
        <Form.Select {...register('questionType')}>
          {Object.entries(QUESTION_TYPE_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      {type === 'multiple_choice' && (
        <fieldset className="mb-1">
          <legend className="fs-6">Options</legend>
          {OPTION_LETTERS.map((letter, i) => (
            <TextField
              key={letter}
              id={`${idPrefix}-option-${letter}`}
              label={`Option ${letter}`}
              registration={register(`options.${i}`)}
            />
          ))}
        </fieldset>
      )}
      {type === 'true_false' ? (
        <Form.Group className="mb-3" controlId={`${idPrefix}-answer`}>
          <Form.Label>Correct Answer</Form.Label>
          <Form.Select
            isInvalid={Boolean(errors.correctAnswer)}
            aria-describedby={errors.correctAnswer ? `${idPrefix}-answer-error` : undefined}
            {...register('correctAnswer')}
          >
            <option value="">Choose...</option>
            <option value="True">True</option>
            <option value="False">False</option>
          </Form.Select>
          {errors.correctAnswer && (
            <Form.Control.Feedback type="invalid" id={`${idPrefix}-answer-error`}>
              {errors.correctAnswer.message}
            </Form.Control.Feedback>
          )}
        </Form.Group>
      ) : (
        <TextField
          id={`${idPrefix}-answer`}
          label="Correct Answer"
          registration={register('correctAnswer')}
          error={errors.correctAnswer?.message}
        />
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Saving...' : submitLabel}
        </Button>
        {onCancel && (
          <Button variant="outline-secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </Form>
  );
}
