// "Assign to classes or students…": the teacher ticks any of their classes, each given wholly or
// to chosen students of it (POST /api/assessments/{id}/assign with classIds and studentIds).
// Assigning only adds: a class it already has wholly stays ticked and cannot be unticked here.
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { classLabel, useGetClassesQuery, useGetClassStudentsQuery } from '../classes';
import { useAssignAssessmentMutation, type Assessment } from './assessmentsApi';
import { useTranslation } from '../../i18n/react';

interface AssignDialogProps {
  assessment: Assessment;
  show: boolean;
  onHide: () => void;
}

type Who = 'whole' | 'chosen';

const fullName = (s: { firstName: string | null; lastName: string | null }) =>
  `${s.firstName ?? ''} ${s.lastName ?? ''}`.trim();

/** The students of one ticked class, each a checkbox (already chosen ones ticked and fixed). */
function ClassStudents({
  classId,
  label,
  already,
  chosen,
  onToggle,
}: {
  classId: string;
  label: string;
  already: ReadonlySet<string>;
  chosen: ReadonlySet<string>;
  onToggle: (studentId: string) => void;
}) {
  const { t } = useTranslation('assessments');
  const students = useGetClassStudentsQuery(classId);
  return (
    <fieldset className="mb-2 ms-4">
      <legend className="small fw-semibold mb-1">{t('assign.studentsOf', { name: label })}</legend>
      {students.isLoading && <p className="small text-body-secondary mb-0">{t('assign.loadingStudents')}</p>}
      {students.data?.length === 0 && <p className="small text-body-secondary mb-0">{t('assign.noStudents')}</p>}
      {students.data?.map((m) => (
        <Form.Check
          key={m.student.id}
          id={`assign-student-${classId}-${m.student.id}`}
          label={fullName(m.student) || t('assign.student')}
          checked={already.has(m.student.id) || chosen.has(m.student.id)}
          disabled={already.has(m.student.id)}
          onChange={() => onToggle(m.student.id)}
        />
      ))}
    </fieldset>
  );
}

export function AssignDialog({ assessment, show, onHide }: AssignDialogProps) {
  const { t } = useTranslation('assessments');
  const toast = useToast();
  const classes = useGetClassesQuery(undefined, { skip: !show });
  const [assign, state] = useAssignAssessmentMutation();
  const given = new Map(assessment.assignedTo.map((c) => [c.classId, c]));
  const wholly = new Set(assessment.assignedTo.filter((c) => c.wholeClass).map((c) => c.classId));
  const alreadyChosen = new Set(assessment.assignedTo.flatMap((c) => c.studentIds));
  const [ticked, setTicked] = useState<Set<string>>(() => new Set(given.size ? [] : [assessment.classId]));
  const [who, setWho] = useState<Who>('whole');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);

  const toggle = <T,>(set: Set<T>, value: T) => {
    const next = new Set(set);
    if (next.has(value)) next.delete(value);
    else next.add(value);
    return next;
  };
  const live = (classes.data ?? []).filter((c) => !wholly.has(c.id));
  const nothing = ticked.size === 0 || (who === 'chosen' && chosen.size === 0);

  const onSubmit = async () => {
    setError(null);
    const classIds = [...ticked];
    try {
      const result = await assign({
        id: assessment.id,
        body: { classIds, ...(who === 'chosen' ? { studentIds: [...chosen] } : {}) },
      }).unwrap();
      toast({ title: t('preview.assigned'), description: result.message });
      onHide();
    } catch (e) {
      // A field names the class or student refused (classIds.1, studentIds.0): say which.
      const fields = isApiError(e) ? (e.fields ?? {}) : {};
      const named = Object.entries(fields).map(([field, message]) => {
        const [list, index] = field.split('.');
        const classId = list === 'classIds' ? classIds[Number(index)] : undefined;
        const cls = classes.data?.find((c) => c.id === classId);
        return cls ? `${classLabel(cls)}: ${message}` : message;
      });
      setError(named.length ? named.join(' ') : serverMessageOr(e, t('preview.assignFailedText')));
    }
  };

  return (
    <Modal show={show} onHide={onHide} aria-labelledby="assign-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="assign-dialog-title">{t('assign.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {assessment.assignedTo.length > 0 && (
          <p className="small" data-testid="assigned-to">
            {t('assign.already', {
              list: assessment.assignedTo
                .map((c) =>
                  c.wholeClass
                    ? t('assign.wholeClass', { name: c.className })
                    : t('lifecycle.someStudents', { name: c.className, count: c.studentIds.length }),
                )
                .join(', '),
            })}
          </p>
        )}
        <fieldset className="mb-3">
          <legend className="h6">{t('assign.classes')}</legend>
          {classes.isLoading && <p className="small text-body-secondary">{t('assign.loadingClasses')}</p>}
          {classes.data && live.length === 0 && (
            <p className="small text-body-secondary mb-0">{t('assign.allHaveIt')}</p>
          )}
          {live.map((c) => (
            <Form.Check
              key={c.id}
              id={`assign-class-${c.id}`}
              label={c.id === assessment.classId ? t('assign.itsClass', { name: classLabel(c) }) : classLabel(c)}
              checked={ticked.has(c.id)}
              onChange={() => setTicked((set) => toggle(set, c.id))}
            />
          ))}
        </fieldset>
        <fieldset className="mb-3">
          <legend className="h6">{t('assign.who')}</legend>
          <Form.Check
            type="radio"
            name="assign-who"
            id="assign-who-whole"
            label={t('assign.whole')}
            checked={who === 'whole'}
            onChange={() => setWho('whole')}
          />
          <Form.Check
            type="radio"
            name="assign-who"
            id="assign-who-chosen"
            label={t('assign.chosen')}
            checked={who === 'chosen'}
            onChange={() => setWho('chosen')}
          />
        </fieldset>
        {who === 'chosen' &&
          live
            .filter((c) => ticked.has(c.id))
            .map((c) => (
              <ClassStudents
                key={c.id}
                classId={c.id}
                label={classLabel(c)}
                already={alreadyChosen}
                chosen={chosen}
                onToggle={(s) => setChosen((set) => toggle(set, s))}
              />
            ))}
        {error && (
          <Alert variant="danger" className="mt-2 mb-0" role="alert">
            {error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          {t('cancel')}
        </Button>
        <Button onClick={() => void onSubmit()} disabled={nothing || state.isLoading}>
          {state.isLoading ? t('assign.assigning') : t('assign.submit')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
