// A teacher's "District assessments": the published common assessments that reach their classes
// (GET /api/common-assessments as a teacher), each assignable as is to one of those classes; the
// class's copy is an ordinary assessment whose questions stay locked (the server refuses edits).
import { Suspense, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { serverMessageOr } from '../../api/apiError';
import { useTranslation } from '../../i18n/react';
import { useGetClassesQuery } from '../classes';
import {
  useAssignCommonAssessmentMutation,
  useGetCommonAssessmentsQuery,
  type CommonAssessment,
} from './commonAssessmentsApi';

function AssignForm({ assessment, classNames }: { assessment: CommonAssessment; classNames: Map<string, string> }) {
  const { t } = useTranslation('bank');
  const [classId, setClassId] = useState('');
  /** The problem as a key of the bank namespace ('' for none). */
  const [error, setError] = useState('');
  const [assign, state] = useAssignCommonAssessmentMutation();
  const id = useId();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (classId === '') {
      setError('commonAssessments.assign.chooseError');
      return;
    }
    setError('');
    await assign({ id: assessment.id, body: { classId } });
  };
  return (
    <Form
      noValidate
      onSubmit={submit}
      aria-label={t('commonAssessments.assign.form', { title: assessment.title })}
      className="d-flex flex-wrap gap-2 align-items-end"
    >
      <Form.Group controlId={`${id}-class`}>
        <Form.Label className="small mb-1">{t('commonAssessments.assign.class')}</Form.Label>
        <Form.Select
          size="sm"
          value={classId}
          onChange={(e) => setClassId(e.target.value)}
          isInvalid={error !== ''}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          <option value="">{t('commonAssessments.assign.choose')}</option>
          {assessment.classIds.map((c) => (
            <option key={c} value={c}>
              {classNames.get(c) ?? c}
            </option>
          ))}
        </Form.Select>
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error && t(error)}
        </Form.Control.Feedback>
      </Form.Group>
      <Button type="submit" size="sm" disabled={state.isLoading}>
        {state.isLoading ? t('commonAssessments.assign.assigning') : t('commonAssessments.assign.submit')}
      </Button>
      {state.isError && (
        <Alert variant="danger" className="w-100 mb-0 py-2">
          {serverMessageOr(state.error, t('commonAssessments.assign.failed'))}
        </Alert>
      )}
      {state.data && (
        <p className="w-100 mb-0 small" role="status">
          {t('commonAssessments.assign.done')}{' '}
          <Link to={`/assessment-preview/${state.data.id}`}>{t('commonAssessments.assign.open')}</Link>{' '}
          {t('commonAssessments.assign.locked')}
        </p>
      )}
    </Form>
  );
}

/** Its texts load with the bank's (the assessments page's own may already be there): nothing shows until then. */
export function DistrictAssessments() {
  return (
    <Suspense fallback={null}>
      <District />
    </Suspense>
  );
}

function District() {
  const { t } = useTranslation('bank');
  const list = useGetCommonAssessmentsQuery();
  const classes = useGetClassesQuery();
  const names = new Map((classes.data ?? []).map((c) => [c.id, c.name]));
  const published = (list.data ?? []).filter((a) => a.status === 'published');
  return (
    <section aria-labelledby="district-assessments" className="mb-4">
      <h2 id="district-assessments" className="h5">
        {t('commonAssessments.district.title')}
      </h2>
      {list.isLoading ? (
        <Spinner animation="border" size="sm" role="status" aria-label={t('commonAssessments.district.loading')} />
      ) : list.isError ? (
        <Alert variant="danger">{serverMessageOr(list.error, t('commonAssessments.district.failed'))}</Alert>
      ) : published.length === 0 ? (
        <p className="text-body-secondary">{t('commonAssessments.district.empty')}</p>
      ) : (
        <ul className="list-group">
          {published.map((a) => (
            <li key={a.id} className="list-group-item">
              <strong>{a.title}</strong>{' '}
              <span className="small text-body-secondary">
                {t('commonAssessments.questionCount', { count: a.questionCount })}
              </span>
              {a.description && <p className="small mb-2">{a.description}</p>}
              <AssignForm assessment={a} classNames={names} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
