// /admin/common-assessments: a district admin writes a common assessment (title, description and
// questions with the house's question form and standards picker), publishes it to schools, grades
// and subjects (blank: all), lists drafts and published ones, and reads each one's roll-up report.
import { useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import type { TFunction } from '../../i18n/i18n';
import { useTranslation } from '../../i18n/react';
import { QuestionEditor, questionToSend } from '../assessments';
import { CommonReport } from './CommonReport';
import {
  listFrom,
  useCreateCommonAssessmentMutation,
  useGetCommonAssessmentsQuery,
  usePublishCommonAssessmentMutation,
  useGetCommonAssessmentQuery,
  useGetCommonAssessmentTargetsQuery,
  useReplaceCommonAssessmentQuestionsMutation,
  type CommonAssessment,
  type CommonAssessmentQuestion,
  type NewCommonAssessment,
} from './commonAssessmentsApi';

type NewQuestion = NewCommonAssessment['questions'][number];

export function NewCommonAssessmentForm({ onCreated }: { onCreated?: () => void }) {
  const { t } = useTranslation('bank');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [questions, setQuestions] = useState<NewQuestion[]>([]);
  /** Each problem as a key of the bank namespace. */
  const [errors, setErrors] = useState<{ title?: string; questions?: string }>({});
  const [create, state] = useCreateCommonAssessmentMutation();
  const id = useId();
  const changeQuestions = (next: NewQuestion[]) => {
    setQuestions(next);
    setErrors((e) => ({ ...e, questions: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (title.trim() === '') next.title = 'commonAssessments.form.titleRequired';
    if (questions.length === 0) next.questions = 'commonAssessments.form.questionsRequired';
    setErrors(next);
    if (next.title || next.questions) return;
    const body: NewCommonAssessment = { title: title.trim(), questions };
    if (description.trim() !== '') body.description = description.trim();
    const result = await create(body);
    if ('data' in result) {
      setTitle('');
      setDescription('');
      setQuestions([]);
      onCreated?.();
    }
  };

  return (
    <Card className="mb-4">
      <Card.Body>
        <h2 className="h5">{t('commonAssessments.form.title')}</h2>
        <Form noValidate onSubmit={submit} aria-label={t('commonAssessments.form.title')}>
          <Form.Group className="mb-3" controlId={`${id}-title`}>
            <Form.Label>{t('commonAssessments.form.name')}</Form.Label>
            <Form.Control
              value={title}
              maxLength={200}
              onChange={(e) => setTitle(e.target.value)}
              isInvalid={!!errors.title}
              aria-describedby={errors.title ? `${id}-title-error` : undefined}
            />
            <Form.Control.Feedback type="invalid" id={`${id}-title-error`}>
              {errors.title && t(errors.title)}
            </Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${id}-description`}>
            <Form.Label>{t('commonAssessments.form.description')}</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              value={description}
              maxLength={5000}
              onChange={(e) => setDescription(e.target.value)}
            />
          </Form.Group>
          <DraftQuestionList
            questions={questions}
            onChange={changeQuestions}
            error={errors.questions && t(errors.questions)}
          />
          {state.isError && (
            <Alert variant="danger">{serverMessageOr(state.error, t('commonAssessments.form.failed'))}</Alert>
          )}
          <Button type="submit" disabled={state.isLoading}>
            {state.isLoading ? t('commonAssessments.saving') : t('commonAssessments.form.submit')}
          </Button>
        </Form>
        <AddDraftQuestion idPrefix={id} onAdd={(q) => changeQuestions([...questions, q])} />
      </Card.Body>
    </Card>
  );
}

/** A draft's questions, each with Remove (the new assessment's form and a draft's "Edit questions"). */
function DraftQuestionList({
  questions,
  onChange,
  error,
}: {
  questions: NewQuestion[];
  onChange: (questions: NewQuestion[]) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation('bank');
  return (
    <>
      <h3 className="h6">{t('commonAssessments.questions.title', { n: questions.length })}</h3>
      {questions.length > 0 && (
        <ol>
          {questions.map((q, i) => (
            <li key={i} className="mb-1">
              {q.questionText}{' '}
              <Button
                variant="link"
                size="sm"
                onClick={() => onChange(questions.filter((_, j) => j !== i))}
                aria-label={t('commonAssessments.questions.removeOne', { n: i + 1 })}
              >
                {t('commonAssessments.questions.remove')}
              </Button>
            </li>
          ))}
        </ol>
      )}
      {error && (
        <p className="text-danger small" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

/** The house's question form (with its standards picker) adding one to a draft: a form of its own, never inside another. */
function AddDraftQuestion({ idPrefix, onAdd }: { idPrefix: string; onAdd: (question: NewQuestion) => void }) {
  const { t } = useTranslation('bank');
  return (
    <div className="border rounded p-3 mt-3">
      <h3 className="h6">{t('commonAssessments.questions.add')}</h3>
      <QuestionEditor
        idPrefix={`${idPrefix}-question`}
        submitLabel={t('commonAssessments.questions.addSubmit')}
        busy={false}
        onSubmit={(values, standards) => onAdd({ ...questionToSend(values), standards: standards ?? [] })}
      />
    </div>
  );
}

/** A stored question as the draft form holds it (its standards by identifier). */
const asDraft = (q: CommonAssessmentQuestion): NewQuestion => ({
  questionText: q.questionText,
  questionType: q.questionType as NewQuestion['questionType'],
  options: q.options,
  correctAnswer: q.correctAnswer,
  acceptedAnswers: q.acceptedAnswers,
  points: q.points,
  standards: q.standards.map((s) => s.identifier),
});

/** A draft's questions, changed and saved as a whole (PUT …/questions); refused once published. */
export function EditDraftQuestions({ assessment, onSaved }: { assessment: CommonAssessment; onSaved: () => void }) {
  const { t } = useTranslation('bank');
  const detail = useGetCommonAssessmentQuery(assessment.id);
  const [edited, setEdited] = useState<NewQuestion[] | null>(null);
  const [error, setError] = useState<string>();
  const [replace, state] = useReplaceCommonAssessmentQuestionsMutation();
  const id = useId();
  if (detail.isLoading)
    return <Spinner animation="border" size="sm" role="status" aria-label={t('commonAssessments.questions.loading')} />;
  if (detail.isError || !detail.data)
    return <Alert variant="danger">{serverMessageOr(detail.error, t('commonAssessments.questions.loadFailed'))}</Alert>;
  const questions = edited ?? detail.data.questions.map(asDraft);
  const change = (next: NewQuestion[]) => {
    setEdited(next);
    setError(undefined);
  };
  const save = async () => {
    if (questions.length === 0) return setError(t('commonAssessments.form.questionsRequired'));
    const result = await replace({ id: assessment.id, body: { questions } });
    if ('data' in result) onSaved();
  };
  return (
    <section aria-label={t('commonAssessments.questions.of', { title: assessment.title })} className="mt-2">
      <DraftQuestionList questions={questions} onChange={change} error={error} />
      {state.isError && (
        <Alert variant="danger">{serverMessageOr(state.error, t('commonAssessments.questions.saveFailed'))}</Alert>
      )}
      <Button size="sm" disabled={state.isLoading} onClick={() => void save()}>
        {state.isLoading ? t('commonAssessments.saving') : t('commonAssessments.questions.save')}
      </Button>
      <AddDraftQuestion idPrefix={id} onAdd={(q) => change([...questions, q])} />
    </section>
  );
}

/** Targets typed as text (kept as typed; sent as its comma-separated entries). */
function TypedTargets({
  id,
  legend,
  chosen,
  onChange,
}: {
  id: string;
  legend: string;
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  const { t } = useTranslation('bank');
  const [text, setText] = useState(chosen.join(', '));
  return (
    <Form.Group className="mb-2" controlId={`${id}-text`}>
      <Form.Label>{t('commonAssessments.publish.typed', { legend })}</Form.Label>
      <Form.Control
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          onChange(listFrom(e.target.value));
        }}
      />
    </Form.Group>
  );
}

/**
 * One kind of target: a checkbox per value the district's classes have (none ticked: all), or,
 * when none is known yet, the values typed, comma-separated.
 */
function TargetChoice({
  id,
  legend,
  options,
  chosen,
  onChange,
}: {
  id: string;
  legend: string;
  options: readonly { value: string; label: string }[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  if (options.length === 0) return <TypedTargets id={id} legend={legend} chosen={chosen} onChange={onChange} />;
  return (
    <fieldset className="mb-2">
      <legend className="fs-6 mb-1">{legend}</legend>
      {options.map((o) => (
        <Form.Check
          key={o.value}
          inline
          id={`${id}-${o.value}`}
          label={o.label}
          checked={chosen.includes(o.value)}
          onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((v) => v !== o.value))}
        />
      ))}
    </fieldset>
  );
}

export function PublishForm({ assessment }: { assessment: CommonAssessment }) {
  const { t } = useTranslation('bank');
  const known = useGetCommonAssessmentTargetsQuery();
  const [schools, setSchools] = useState<string[]>(assessment.targets.schools);
  const [grades, setGrades] = useState<string[]>(assessment.targets.grades);
  const [subjects, setSubjects] = useState<string[]>(assessment.targets.subjects);
  const [publish, state] = usePublishCommonAssessmentMutation();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await publish({ id: assessment.id, body: { schools, grades, subjects } });
  };
  const plain = (values: readonly string[] = []) => values.map((v) => ({ value: v, label: v }));
  if (known.isLoading)
    return <Spinner animation="border" size="sm" role="status" aria-label={t('commonAssessments.publish.loading')} />;
  return (
    <Form
      noValidate
      onSubmit={submit}
      aria-label={t('commonAssessments.publish.form', { title: assessment.title })}
      aria-describedby={`${id}-hint`}
      className="mt-2"
    >
      <p id={`${id}-hint`} className="small text-body-secondary">
        {t('commonAssessments.publish.hint')}
      </p>
      <TargetChoice
        id={`${id}-schools`}
        legend={t('commonAssessments.target.schools')}
        options={(known.data?.schools ?? []).map((s) => ({ value: s.id, label: s.name || s.id }))}
        chosen={schools}
        onChange={setSchools}
      />
      <TargetChoice
        id={`${id}-grades`}
        legend={t('commonAssessments.target.grades')}
        options={plain(known.data?.grades)}
        chosen={grades}
        onChange={setGrades}
      />
      <TargetChoice
        id={`${id}-subjects`}
        legend={t('commonAssessments.target.subjects')}
        options={plain(known.data?.subjects)}
        chosen={subjects}
        onChange={setSubjects}
      />
      {state.isError && (
        <Alert variant="danger">{serverMessageOr(state.error, t('commonAssessments.publish.failed'))}</Alert>
      )}
      <Button type="submit" size="sm" disabled={state.isLoading}>
        {state.isLoading ? t('commonAssessments.publish.publishing') : t('commonAssessments.publish.submit')}
      </Button>
    </Form>
  );
}

const targetsText = (t: TFunction, a: CommonAssessment) => {
  const part = (label: string, list: string[]) =>
    t('commonAssessments.target.part', {
      label: t(`commonAssessments.target.${label}`),
      list: list.length ? list.join(', ') : t(`commonAssessments.target.all.${label}`),
    });
  return [
    part('schools', a.targets.schools),
    part('grades', a.targets.grades),
    part('subjects', a.targets.subjects),
  ].join(' · ');
};

function CommonAssessmentItem({ assessment }: { assessment: CommonAssessment }) {
  const { t } = useTranslation('bank');
  const [panel, setPanel] = useState<'none' | 'report' | 'questions' | 'publish'>('none');
  const published = assessment.status === 'published';
  const toggle = (which: typeof panel) => setPanel(panel === which ? 'none' : which);
  const toggleButton = (which: typeof panel, shown: string, hidden: string) => (
    <Button variant="outline-primary" size="sm" aria-expanded={panel === which} onClick={() => toggle(which)}>
      {panel === which ? shown : hidden}
    </Button>
  );
  return (
    <li className="list-group-item">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <strong>{assessment.title}</strong>
        <Badge bg={published ? 'success' : 'secondary'}>
          {published ? t('commonAssessments.item.published') : t('commonAssessments.item.draft')}
        </Badge>
        <span className="small text-body-secondary">
          {t('commonAssessments.questionCount', { count: assessment.questionCount })}
        </span>
        <span className="ms-auto d-flex gap-2">
          {published ? (
            toggleButton('report', t('commonAssessments.item.hideReport'), t('commonAssessments.item.viewReport'))
          ) : (
            <>
              {toggleButton(
                'questions',
                t('commonAssessments.item.closeQuestions'),
                t('commonAssessments.item.editQuestions'),
              )}
              {toggleButton('publish', t('close'), t('commonAssessments.item.publish'))}
            </>
          )}
        </span>
      </div>
      {published && <p className="small mb-0">{targetsText(t, assessment)}</p>}
      {panel === 'report' && <CommonReport id={assessment.id} />}
      {panel === 'questions' && <EditDraftQuestions assessment={assessment} onSaved={() => setPanel('none')} />}
      {panel === 'publish' && <PublishForm assessment={assessment} />}
    </li>
  );
}

export function CommonAssessmentsPage() {
  const { t } = useTranslation('bank');
  const list = useGetCommonAssessmentsQuery();
  return (
    <>
      <h1 className="h3 mb-3">{t('commonAssessments.page.title')}</h1>
      <NewCommonAssessmentForm />
      <h2 className="h5">{t('commonAssessments.page.yours')}</h2>
      {list.isLoading ? (
        <Spinner animation="border" size="sm" role="status" aria-label={t('commonAssessments.page.loading')} />
      ) : list.isError ? (
        <Alert variant="danger">{serverMessageOr(list.error, t('commonAssessments.page.failed'))}</Alert>
      ) : (list.data ?? []).length === 0 ? (
        <p className="text-body-secondary">{t('commonAssessments.page.empty')}</p>
      ) : (
        <ul className="list-group">
          {(list.data ?? []).map((a) => (
            // Keyed by its status too: a draft just published starts closed, with "View report".
            <CommonAssessmentItem key={`${a.id}-${a.status}`} assessment={a} />
          ))}
        </ul>
      )}
    </>
  );
}

export default CommonAssessmentsPage;
