// One question's edit form (rules in assessmentSchemas.ts): text, type, points, options A–D with the correct
// one marked by its radio (a typed key could miss every option), True/False marked the same way,
// and for short answers the key plus other accepted answers, one per line. The API's validation
// errors (`serverErrors`, by the API's field names) show on the fields they name.
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '../../components/TextField';
import { StandardsPicker, useGetFrameworksQuery, type StandardRef } from '../standards';
import type { Question, QuestionType } from './assessmentsApi';
import {
  MAX_ACCEPTED_ANSWERS,
  MAX_POINTS,
  MIN_POINTS,
  OPTION_LETTERS,
  QUESTION_TYPE_LABELS,
  questionEditSchema,
  type QuestionEditValues,
} from './assessmentSchemas';
import { parseOptions } from './parseOptions';
import { useTranslation } from '../../i18n/react';
import { useAssessmentText } from './texts';

/** What the form starts from: a question of an assessment, or one like it (a bank item). */
export type EditableQuestion = Pick<
  Question,
  'questionText' | 'questionType' | 'options' | 'correctAnswer' | 'acceptedAnswers' | 'standards'
> & { points: string | number };

interface Props {
  /** Prefix of the control ids (unique per editor on the page). */
  idPrefix: string;
  question?: EditableQuestion;
  submitLabel: string;
  busy: boolean;
  /** standards: the chosen identifiers, or undefined when the picker is not offered (alignment unchanged). */
  onSubmit: (values: QuestionEditValues, standards: string[] | undefined) => Promise<void> | void;
  onCancel?: () => void;
  /** The API's refusal of the last submit, by its field names (questionText, options.1, correctAnswer…). */
  serverErrors?: Record<string, string> | undefined;
  /** More fields of the same form, shown above its buttons (a bank item's labels). */
  children?: ReactNode;
}

/**
 * The form's field that shows the API's error on `key` (a question's field as the API names it),
 * or undefined when the form has no such field. The key of a question is marked by a radio for
 * multiple choice and true/false, typed for short answers.
 */
export function questionFieldOf(key: string, type: QuestionType): keyof QuestionEditValues | undefined {
  const head = key.split('.')[0];
  switch (head) {
    case 'questionText':
    case 'questionType':
    case 'points':
    case 'options':
    case 'acceptedAnswers':
      return head;
    case 'correctAnswer':
      return type === 'multiple_choice' ? 'correctOption' : type === 'true_false' ? 'trueFalse' : 'correctAnswer';
    default:
      return undefined;
  }
}

const same = (a: string, b: string | undefined) => a.trim().toLowerCase() === (b ?? '').trim().toLowerCase();

function initialValues(question: EditableQuestion | undefined): QuestionEditValues {
  const options = parseOptions(question?.options ?? []);
  const four = OPTION_LETTERS.map((_, i) => options[i] ?? '');
  const key = question?.correctAnswer;
  const type = question?.questionType ?? 'multiple_choice';
  const marked = type === 'multiple_choice' ? four.findIndex((o) => o !== '' && same(o, key)) : -1;
  const points = Number(question?.points ?? 1);
  return {
    questionText: question?.questionText ?? '',
    questionType: type,
    options: four,
    correctOption: marked >= 0 ? String(marked) : '',
    trueFalse: type === 'true_false' && (key === 'True' || key === 'False') ? key : '',
    correctAnswer: type === 'short_answer' ? (key ?? '') : '',
    acceptedAnswers: (question?.acceptedAnswers ?? []).join('\n'),
    points: Number.isFinite(points) ? String(points) : '1',
  };
}

/**
 * The standards of a question (or an assessment) as its teacher reads them, none before any
 * alignment; a question's come without statements, so `withStatements` (the assessment's) adds them.
 */
export function standardsOf(owner: object | undefined, withStatements: readonly StandardRef[] = []): StandardRef[] {
  const standards = (owner as { standards?: StandardRef[] } | undefined)?.standards;
  if (!Array.isArray(standards)) return [];
  const statements = new Map(withStatements.map((s) => [s.identifier, s.statement]));
  return standards.map((s) => ({ ...s, statement: s.statement ?? statements.get(s.identifier) }));
}

/** The message under a group of controls, referenced by their aria-describedby. */
function GroupError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <div className="invalid-feedback d-block" id={id}>
      {message}
    </div>
  );
}

export function QuestionEditor({
  idPrefix,
  question,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
  serverErrors,
  children,
}: Props) {
  const { t } = useTranslation('assessments');
  const text = useAssessmentText();
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = useForm<QuestionEditValues>({
    resolver: zodResolver(questionEditSchema),
    defaultValues: initialValues(question),
  });
  const type: QuestionType = watch('questionType');
  useEffect(() => {
    for (const [key, message] of Object.entries(serverErrors ?? {})) {
      const field = questionFieldOf(key, type);
      if (field) setError(field, { type: 'server', message });
    }
    // Once per refusal (a new object each time), on the fields of the type it was sent with.
  }, [serverErrors, setError]);
  const [standards, setStandards] = useState<StandardRef[]>(() => standardsOf(question));
  const frameworks = useGetFrameworksQuery();
  const withStandards = (frameworks.data?.length ?? 0) > 0 || standardsOf(question).length > 0;
  const submit = handleSubmit(async (values) =>
    onSubmit(values, withStandards ? standards.map((s) => s.identifier) : undefined),
  );
  const optionsError = text(errors.options?.message ?? errors.options?.root?.message);
  const markError = text(errors.correctOption?.message);
  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;

  return (
    <Form noValidate onSubmit={submit} aria-label={submitLabel}>
      <Form.Group className="mb-3" controlId={`${idPrefix}-text`}>
        <Form.Label>{t('editor.text')}</Form.Label>
        <Form.Control
          as="textarea"
          rows={2}
          isInvalid={Boolean(errors.questionText)}
          aria-describedby={errors.questionText ? `${idPrefix}-text-error` : undefined}
          {...register('questionText')}
        />
        {errors.questionText && (
          <Form.Control.Feedback type="invalid" id={`${idPrefix}-text-error`}>
            {text(errors.questionText.message)}
          </Form.Control.Feedback>
        )}
      </Form.Group>
      <div className="d-flex flex-wrap gap-3">
        <Form.Group className="mb-3 flex-grow-1" controlId={`${idPrefix}-type`}>
          <Form.Label>{t('editor.type')}</Form.Label>
          <Form.Select
            isInvalid={Boolean(errors.questionType)}
            aria-describedby={errors.questionType ? `${idPrefix}-type-error` : undefined}
            {...register('questionType')}
          >
            {Object.keys(QUESTION_TYPE_LABELS).map((value) => (
              <option key={value} value={value}>
                {t(`type.${value}`)}
              </option>
            ))}
          </Form.Select>
          {errors.questionType && (
            <Form.Control.Feedback type="invalid" id={`${idPrefix}-type-error`}>
              {text(errors.questionType.message)}
            </Form.Control.Feedback>
          )}
        </Form.Group>
        <Form.Group className="mb-3" controlId={`${idPrefix}-points`} style={{ maxWidth: '9rem' }}>
          <Form.Label>{t('editor.points')}</Form.Label>
          <Form.Control
            type="number"
            inputMode="decimal"
            min={MIN_POINTS}
            max={MAX_POINTS}
            step={0.01}
            isInvalid={Boolean(errors.points)}
            aria-describedby={errors.points ? `${idPrefix}-points-error` : undefined}
            {...register('points')}
          />
          {errors.points && (
            <Form.Control.Feedback type="invalid" id={`${idPrefix}-points-error`}>
              {text(errors.points.message)}
            </Form.Control.Feedback>
          )}
        </Form.Group>
      </div>
      {type === 'multiple_choice' && (
        <fieldset className="mb-3" aria-describedby={`${idPrefix}-options-hint`}>
          <legend className="fs-6 mb-1">{t('editor.options')}</legend>
          <p className="small text-body-secondary mb-2" id={`${idPrefix}-options-hint`}>
            {t('editor.optionsHint')}
          </p>
          {OPTION_LETTERS.map((letter, i) => (
            <div className="input-group mb-2" key={letter}>
              <label className="input-group-text gap-2" htmlFor={`${idPrefix}-correct-${letter}`}>
                <input
                  type="radio"
                  className="form-check-input mt-0"
                  id={`${idPrefix}-correct-${letter}`}
                  value={String(i)}
                  aria-label={t('editor.optionCorrect', { letter })}
                  aria-describedby={describedBy(Boolean(markError) && `${idPrefix}-mark-error`)}
                  {...register('correctOption')}
                />
                <span aria-hidden="true">{letter}</span>
              </label>
              <input
                className={`form-control${optionsError ? ' is-invalid' : ''}`}
                id={`${idPrefix}-option-${letter}`}
                aria-label={t('editor.option', { letter })}
                aria-invalid={optionsError ? true : undefined}
                aria-describedby={describedBy(Boolean(optionsError) && `${idPrefix}-options-error`)}
                {...register(`options.${i}`)}
              />
            </div>
          ))}
          <GroupError id={`${idPrefix}-options-error`} message={optionsError} />
          <GroupError id={`${idPrefix}-mark-error`} message={markError} />
        </fieldset>
      )}
      {type === 'true_false' && (
        <fieldset className="mb-3">
          <legend className="fs-6 mb-1">{t('editor.correctAnswer')}</legend>
          {['True', 'False'].map((value) => (
            <Form.Check
              key={value}
              inline
              type="radio"
              id={`${idPrefix}-tf-${value}`}
              label={value === 'True' ? t('editor.true') : t('editor.false')}
              value={value}
              aria-describedby={errors.trueFalse ? `${idPrefix}-tf-error` : undefined}
              {...register('trueFalse')}
            />
          ))}
          <GroupError id={`${idPrefix}-tf-error`} message={text(errors.trueFalse?.message)} />
        </fieldset>
      )}
      {type === 'short_answer' && (
        <>
          <TextField
            id={`${idPrefix}-answer`}
            label={t('editor.correctAnswer')}
            registration={register('correctAnswer')}
            error={text(errors.correctAnswer?.message)}
          />
          <Form.Group className="mb-3" controlId={`${idPrefix}-accepted`}>
            <Form.Label>{t('editor.alsoAccept')}</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              isInvalid={Boolean(errors.acceptedAnswers)}
              aria-describedby={describedBy(
                `${idPrefix}-accepted-hint`,
                Boolean(errors.acceptedAnswers) && `${idPrefix}-accepted-error`,
              )}
              {...register('acceptedAnswers')}
            />
            <Form.Text id={`${idPrefix}-accepted-hint`}>
              {t('editor.alsoAcceptHint', { max: MAX_ACCEPTED_ANSWERS })}
            </Form.Text>
            {errors.acceptedAnswers && (
              <Form.Control.Feedback type="invalid" id={`${idPrefix}-accepted-error`}>
                {text(errors.acceptedAnswers.message)}
              </Form.Control.Feedback>
            )}
          </Form.Group>
        </>
      )}
      {withStandards && (
        <StandardsPicker id={`${idPrefix}-standards`} value={standards} onChange={setStandards} disabled={busy} />
      )}
      {children}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? t('editor.saving') : submitLabel}
        </Button>
        {onCancel && (
          <Button variant="outline-secondary" onClick={onCancel}>
            {t('cancel')}
          </Button>
        )}
      </div>
    </Form>
  );
}
