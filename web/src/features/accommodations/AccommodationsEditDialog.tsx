// One student's accommodations, as their teacher sets them (PUT …/students/{studentId}/accommodations):
// the seven, in a teacher's words. A refusal names its field: the message shows under it.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import {
  useSetStudentAccommodationsMutation,
  type Accommodations,
  type ClassStudentAccommodations,
} from './accommodationsApi';
import { FLAG_LABELS, studentName, type Flag } from './labels';

const FLAG_HINTS: Record<Flag, string> = {
  readAloud: 'A "Read aloud" button speaks each question and its choices.',
  largeText: 'Bigger text on the taking and practice pages.',
  highContrast: 'Black on white with strong outlines.',
  lineGuide: 'A reading band that follows where the student is reading.',
  answerMasking: 'Each choice stays hidden until the student shows it.',
};

const EXTRA_TIME_CHOICES: { value: string; label: string }[] = [
  { value: '1', label: 'Standard time' },
  { value: '1.5', label: '1.5× time' },
  { value: '2', label: '2× time' },
  { value: 'none', label: 'No time limit' },
];

interface Props {
  classId: string;
  student: ClassStudentAccommodations | null;
  onHide: () => void;
}

export function AccommodationsEditDialog({ classId, student, onHide }: Props) {
  return (
    <Modal show={student !== null} onHide={onHide} centered aria-labelledby="accommodations-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="accommodations-dialog-title" as="h2" className="h5">
          Accommodations{student ? ` of ${studentName(student)}` : ''}
        </Modal.Title>
      </Modal.Header>
      {student && <AccommodationsForm key={student.studentId} classId={classId} student={student} onDone={onHide} />}
    </Modal>
  );
}

function AccommodationsForm({
  classId,
  student,
  onDone,
}: {
  classId: string;
  student: ClassStudentAccommodations;
  onDone: () => void;
}) {
  const [save, { isLoading }] = useSetStudentAccommodationsMutation();
  const toast = useToast();
  const [values, setValues] = useState<Accommodations>(() => ({
    readAloud: student.readAloud,
    reducedChoices: student.reducedChoices,
    extraTime: student.extraTime,
    largeText: student.largeText,
    highContrast: student.highContrast,
    lineGuide: student.lineGuide,
    answerMasking: student.answerMasking,
  }));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const id = (field: string) => `accommodation-${field}`;
  const set = <K extends keyof Accommodations>(key: K, value: Accommodations[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  // A factor stored earlier that the list does not offer stays choosable as it is.
  const timeChoices = EXTRA_TIME_CHOICES.some((c) => c.value === String(values.extraTime))
    ? EXTRA_TIME_CHOICES
    : [...EXTRA_TIME_CHOICES, { value: String(values.extraTime), label: `${values.extraTime}× time` }];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFieldErrors({});
    setFormError(null);
    try {
      await save({ id: classId, studentId: student.studentId, body: values }).unwrap();
      toast({ title: 'Saved', description: `Accommodations of ${studentName(student)} saved` });
      onDone();
    } catch (error) {
      if (isApiError(error) && error.status === 400 && error.fields && Object.keys(error.fields).length > 0) {
        setFieldErrors(error.fields);
      } else {
        setFormError(serverMessageOr(error, 'Could not save the accommodations'));
      }
    }
  }

  const feedback = (field: string) =>
    fieldErrors[field] ? (
      <Form.Control.Feedback type="invalid" id={`${id(field)}-error`} className="d-block">
        {fieldErrors[field]}
      </Form.Control.Feedback>
    ) : null;
  const described = (field: string) => [`${id(field)}-hint`, fieldErrors[field] ? `${id(field)}-error` : ''].join(' ');
  const flag = (f: Flag) => (
    <Form.Group className="mb-2" key={f}>
      <Form.Check
        type="switch"
        id={id(f)}
        label={FLAG_LABELS[f]}
        checked={values[f]}
        isInvalid={!!fieldErrors[f]}
        aria-invalid={!!fieldErrors[f]}
        onChange={(e) => set(f, e.currentTarget.checked)}
        aria-describedby={described(f)}
      />
      <Form.Text id={`${id(f)}-hint`} className="d-block ms-5">
        {FLAG_HINTS[f]}
      </Form.Text>
      {feedback(f)}
    </Form.Group>
  );

  return (
    <Form noValidate onSubmit={(e) => void onSubmit(e)}>
      <Modal.Body>
        {formError && (
          <Alert variant="danger" role="alert">
            {formError}
          </Alert>
        )}
        {flag('readAloud')}
        <Form.Group className="mb-3 mt-3" controlId={id('reducedChoices')}>
          <Form.Label>Fewer answer choices</Form.Label>
          <Form.Select
            value={String(values.reducedChoices)}
            isInvalid={!!fieldErrors.reducedChoices}
            aria-invalid={!!fieldErrors.reducedChoices}
            onChange={(e) => set('reducedChoices', Number(e.currentTarget.value))}
            aria-describedby={described('reducedChoices')}
          >
            <option value="0">All choices</option>
            <option value="1">Remove 1 wrong choice</option>
            <option value="2">Remove 2 wrong choices</option>
          </Form.Select>
          <Form.Text id={`${id('reducedChoices')}-hint`}>
            On multiple-choice questions; the right answer always stays.
          </Form.Text>
          {feedback('reducedChoices')}
        </Form.Group>
        <Form.Group className="mb-3" controlId={id('extraTime')}>
          <Form.Label>Extra time</Form.Label>
          <Form.Select
            value={String(values.extraTime)}
            isInvalid={!!fieldErrors.extraTime}
            aria-invalid={!!fieldErrors.extraTime}
            onChange={(e) => {
              const v = e.currentTarget.value;
              set('extraTime', v === 'none' ? 'none' : Number(v));
            }}
            aria-describedby={described('extraTime')}
          >
            {timeChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </Form.Select>
          <Form.Text id={`${id('extraTime')}-hint`}>Where an assessment has a time limit.</Form.Text>
          {feedback('extraTime')}
        </Form.Group>
        {(['largeText', 'highContrast', 'lineGuide', 'answerMasking'] as const).map(flag)}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={isLoading}>
          {isLoading ? 'Saving...' : 'Save'}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
