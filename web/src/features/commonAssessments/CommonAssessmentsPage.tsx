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
import { QuestionEditor, questionToSend } from '../assessments';
import { CommonReport } from './CommonReport';
import {
  listFrom,
  useCreateCommonAssessmentMutation,
  useGetCommonAssessmentsQuery,
  usePublishCommonAssessmentMutation,
  type CommonAssessment,
  type NewCommonAssessment,
} from './commonAssessmentsApi';

type NewQuestion = NewCommonAssessment['questions'][number];

export function NewCommonAssessmentForm({ onCreated }: { onCreated?: () => void }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [questions, setQuestions] = useState<NewQuestion[]>([]);
  const [errors, setErrors] = useState<{ title?: string; questions?: string }>({});
  const [create, state] = useCreateCommonAssessmentMutation();
  const id = useId();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (title.trim() === '') next.title = 'Title is required';
    if (questions.length === 0) next.questions = 'A common assessment needs at least one question';
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
        <h2 className="h5">New common assessment</h2>
        <Form noValidate onSubmit={submit} aria-label="New common assessment">
          <Form.Group className="mb-3" controlId={`${id}-title`}>
            <Form.Label>Title</Form.Label>
            <Form.Control
              value={title}
              maxLength={200}
              onChange={(e) => setTitle(e.target.value)}
              isInvalid={!!errors.title}
              aria-describedby={errors.title ? `${id}-title-error` : undefined}
            />
            <Form.Control.Feedback type="invalid" id={`${id}-title-error`}>
              {errors.title}
            </Form.Control.Feedback>
          </Form.Group>
          <Form.Group className="mb-3" controlId={`${id}-description`}>
            <Form.Label>Description</Form.Label>
            <Form.Control
              as="textarea"
              rows={2}
              value={description}
              maxLength={5000}
              onChange={(e) => setDescription(e.target.value)}
            />
          </Form.Group>
          <h3 className="h6">Questions ({questions.length})</h3>
          {questions.length > 0 && (
            <ol>
              {questions.map((q, i) => (
                <li key={i} className="mb-1">
                  {q.questionText}{' '}
                  <Button
                    variant="link"
                    size="sm"
                    onClick={() => setQuestions((all) => all.filter((_, j) => j !== i))}
                    aria-label={`Remove question ${i + 1}`}
                  >
                    Remove
                  </Button>
                </li>
              ))}
            </ol>
          )}
          {errors.questions && (
            <p className="text-danger small" role="alert">
              {errors.questions}
            </p>
          )}
          {state.isError && (
            <Alert variant="danger">{serverMessageOr(state.error, 'The common assessment could not be saved')}</Alert>
          )}
          <Button type="submit" disabled={state.isLoading}>
            {state.isLoading ? 'Saving…' : 'Save draft'}
          </Button>
        </Form>
        <div className="border rounded p-3 mt-3">
          <h3 className="h6">Add a question</h3>
          <QuestionEditor
            idPrefix={`${id}-question`}
            submitLabel="Add Question"
            busy={false}
            onSubmit={(values, standards) => {
              const q: NewQuestion = { ...questionToSend(values), standards: standards ?? [] };
              setQuestions((all) => [...all, q]);
              setErrors((e) => ({ ...e, questions: undefined }));
            }}
          />
        </div>
      </Card.Body>
    </Card>
  );
}

export function PublishForm({ assessment }: { assessment: CommonAssessment }) {
  const [schools, setSchools] = useState('');
  const [grades, setGrades] = useState('');
  const [subjects, setSubjects] = useState('');
  const [publish, state] = usePublishCommonAssessmentMutation();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await publish({
      id: assessment.id,
      body: { schools: listFrom(schools), grades: listFrom(grades), subjects: listFrom(subjects) },
    });
  };
  const field = (key: string, label: string, value: string, set: (v: string) => void) => (
    <Form.Group className="mb-2" controlId={`${id}-${key}`}>
      <Form.Label>{label}</Form.Label>
      <Form.Control value={value} onChange={(e) => set(e.target.value)} aria-describedby={`${id}-hint`} />
    </Form.Group>
  );
  return (
    <Form noValidate onSubmit={submit} aria-label={`Publish ${assessment.title}`} className="mt-2">
      <p id={`${id}-hint`} className="small text-body-secondary">
        Separate entries with commas; leave a field blank for all. Publishing locks its questions.
      </p>
      {field('schools', 'Schools (roster ids)', schools, setSchools)}
      {field('grades', 'Grades', grades, setGrades)}
      {field('subjects', 'Subjects', subjects, setSubjects)}
      {state.isError && <Alert variant="danger">{serverMessageOr(state.error, 'It could not be published')}</Alert>}
      <Button type="submit" size="sm" disabled={state.isLoading}>
        {state.isLoading ? 'Publishing…' : 'Publish'}
      </Button>
    </Form>
  );
}

const targetsText = (a: CommonAssessment) => {
  const part = (label: string, list: string[]) => `${label}: ${list.length ? list.join(', ') : 'all'}`;
  return [
    part('Schools', a.targets.schools),
    part('Grades', a.targets.grades),
    part('Subjects', a.targets.subjects),
  ].join(' · ');
};

function CommonAssessmentItem({ assessment }: { assessment: CommonAssessment }) {
  const [open, setOpen] = useState(false);
  const published = assessment.status === 'published';
  return (
    <li className="list-group-item">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <strong>{assessment.title}</strong>
        <Badge bg={published ? 'success' : 'secondary'}>{published ? 'Published' : 'Draft'}</Badge>
        <span className="small text-body-secondary">{assessment.questionCount} questions</span>
        <Button
          variant="outline-primary"
          size="sm"
          className="ms-auto"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
        >
          {published ? (open ? 'Hide report' : 'View report') : open ? 'Close' : 'Publish…'}
        </Button>
      </div>
      {published && <p className="small mb-0">{targetsText(assessment)}</p>}
      {open && (published ? <CommonReport id={assessment.id} /> : <PublishForm assessment={assessment} />)}
    </li>
  );
}

export function CommonAssessmentsPage() {
  const list = useGetCommonAssessmentsQuery();
  return (
    <>
      <h1 className="h3 mb-3">Common assessments</h1>
      <NewCommonAssessmentForm />
      <h2 className="h5">Your common assessments</h2>
      {list.isLoading ? (
        <Spinner animation="border" size="sm" role="status" aria-label="Loading common assessments" />
      ) : list.isError ? (
        <Alert variant="danger">{serverMessageOr(list.error, 'The common assessments could not be loaded')}</Alert>
      ) : (list.data ?? []).length === 0 ? (
        <p className="text-body-secondary">No common assessments yet. Write one above, then publish it.</p>
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
