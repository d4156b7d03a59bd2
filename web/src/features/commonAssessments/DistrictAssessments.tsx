// A teacher's "District assessments": the published common assessments that reach their classes
// (GET /api/common-assessments as a teacher), each assignable as is to one of those classes; the
// class's copy is an ordinary assessment whose questions stay locked (the server refuses edits).
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import { useGetClassesQuery } from '../classes';
import {
  useAssignCommonAssessmentMutation,
  useGetCommonAssessmentsQuery,
  type CommonAssessment,
} from './commonAssessmentsApi';

function AssignForm({ assessment, classNames }: { assessment: CommonAssessment; classNames: Map<string, string> }) {
  const [classId, setClassId] = useState('');
  const [error, setError] = useState('');
  const [assign, state] = useAssignCommonAssessmentMutation();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (classId === '') {
      setError('Choose a class');
      return;
    }
    setError('');
    await assign({ id: assessment.id, body: { classId } });
  };
  return (
    <Form
      noValidate
      onSubmit={submit}
      aria-label={`Assign ${assessment.title}`}
      className="d-flex flex-wrap gap-2 align-items-end"
    >
      <Form.Group controlId={`${id}-class`}>
        <Form.Label className="small mb-1">Class</Form.Label>
        <Form.Select
          size="sm"
          value={classId}
          onChange={(e) => setClassId(e.target.value)}
          isInvalid={error !== ''}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <option value="">Choose a class…</option>
          {assessment.classIds.map((c) => (
            <option key={c} value={c}>
              {classNames.get(c) ?? c}
            </option>
          ))}
        </Form.Select>
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      </Form.Group>
      <Button type="submit" size="sm" disabled={state.isLoading}>
        {state.isLoading ? 'Assigning…' : 'Assign to class'}
      </Button>
      {state.isError && (
        <Alert variant="danger" className="w-100 mb-0 py-2">
          {serverMessageOr(state.error, 'It could not be assigned')}
        </Alert>
      )}
      {state.data && (
        <p className="w-100 mb-0 small" role="status">
          Assigned. <Link to={`/assessment-preview/${state.data.id}`}>Open the class&apos;s copy</Link> (its questions
          are locked by the district).
        </p>
      )}
    </Form>
  );
}

export function DistrictAssessments() {
  const list = useGetCommonAssessmentsQuery();
  const classes = useGetClassesQuery();
  const names = new Map((classes.data ?? []).map((c) => [c.id, c.name]));
  const published = (list.data ?? []).filter((a) => a.status === 'published');
  return (
    <section aria-labelledby="district-assessments" className="mb-4">
      <h2 id="district-assessments" className="h5">
        District assessments
      </h2>
      {list.isLoading ? (
        <Spinner animation="border" size="sm" role="status" aria-label="Loading district assessments" />
      ) : list.isError ? (
        <Alert variant="danger">{serverMessageOr(list.error, 'The district assessments could not be loaded')}</Alert>
      ) : published.length === 0 ? (
        <p className="text-body-secondary">Your district has not published an assessment for your classes.</p>
      ) : (
        <ul className="list-group">
          {published.map((a) => (
            <li key={a.id} className="list-group-item">
              <strong>{a.title}</strong> <span className="small text-body-secondary">{a.questionCount} questions</span>
              {a.description && <p className="small mb-2">{a.description}</p>}
              <AssignForm assessment={a} classNames={names} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
