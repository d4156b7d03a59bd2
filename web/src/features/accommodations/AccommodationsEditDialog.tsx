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
import { flagLabel, studentName, timeFactorText, type Flag } from './labels';
import { useTranslation } from '../../i18n/react';
import type { TFunction } from '../../i18n/i18n';

/** The choices of extra time, in the interface's language. */
const extraTimeChoices = (t: TFunction): { value: string; label: string }[] => [
  { value: '1', label: t('accommodations.standardTime') },
  { value: '1.5', label: timeFactorText(1.5, t) },
  { value: '2', label: timeFactorText(2, t) },
  { value: 'none', label: t('accommodations.noTimeLimit') },
];

interface Props {
  classId: string;
  student: ClassStudentAccommodations | null;
  onHide: () => void;
}

export function AccommodationsEditDialog({ classId, student, onHide }: Props) {
  const { t } = useTranslation('teacher');
  return (
    <Modal show={student !== null} onHide={onHide} centered aria-labelledby="accommodations-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="accommodations-dialog-title" as="h2" className="h5">
          {student ? t('accommodations.dialogTitle', { name: studentName(student, t) }) : t('accommodations.title')}
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
  const { t } = useTranslation('teacher');
  const EXTRA_TIME_CHOICES = extraTimeChoices(t);
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
    : [...EXTRA_TIME_CHOICES, { value: String(values.extraTime), label: timeFactorText(Number(values.extraTime), t) }];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFieldErrors({});
    setFormError(null);
    try {
      await save({ id: classId, studentId: student.studentId, body: values }).unwrap();
      toast({
        title: t('accommodations.saved'),
        description: t('accommodations.savedText', { name: studentName(student, t) }),
      });
      onDone();
    } catch (error) {
      if (isApiError(error) && error.status === 400 && error.fields && Object.keys(error.fields).length > 0) {
        setFieldErrors(error.fields);
      } else {
        setFormError(serverMessageOr(error, t('accommodations.saveFailed')));
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
        label={flagLabel(f, t)}
        checked={values[f]}
        isInvalid={!!fieldErrors[f]}
        aria-invalid={!!fieldErrors[f]}
        onChange={(e) => set(f, e.currentTarget.checked)}
        aria-describedby={described(f)}
      />
      <Form.Text id={`${id(f)}-hint`} className="d-block ms-5">
        {t(`accommodations.hint.${f}`)}
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
          <Form.Label>{t('accommodations.fewerChoices')}</Form.Label>
          <Form.Select
            value={String(values.reducedChoices)}
            isInvalid={!!fieldErrors.reducedChoices}
            aria-invalid={!!fieldErrors.reducedChoices}
            onChange={(e) => set('reducedChoices', Number(e.currentTarget.value))}
            aria-describedby={described('reducedChoices')}
          >
            <option value="0">{t('accommodations.allChoices')}</option>
            <option value="1">{t('accommodations.removeWrong', { count: 1 })}</option>
            <option value="2">{t('accommodations.removeWrong', { count: 2 })}</option>
          </Form.Select>
          <Form.Text id={`${id('reducedChoices')}-hint`}>{t('accommodations.fewerChoicesHint')}</Form.Text>
          {feedback('reducedChoices')}
        </Form.Group>
        <Form.Group className="mb-3" controlId={id('extraTime')}>
          <Form.Label>{t('accommodations.extraTime')}</Form.Label>
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
          <Form.Text id={`${id('extraTime')}-hint`}>{t('accommodations.extraTimeHint')}</Form.Text>
          {feedback('extraTime')}
        </Form.Group>
        {(['largeText', 'highContrast', 'lineGuide', 'answerMasking'] as const).map(flag)}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onDone}>
          {t('common:cancel')}
        </Button>
        <Button type="submit" disabled={isLoading}>
          {isLoading ? t('classes.saving') : t('accommodations.save')}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
