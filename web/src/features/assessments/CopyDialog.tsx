// "Copy to a class…": a draft copy of the assessment in one of the teacher's classes, to change
// there without touching this one (POST /api/assessments/{id}/copy); opens the copy.
import { useState } from 'react';
import { useNavigate } from 'react-router';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { ClassPicker, useGetClassesQuery } from '../classes';
import { useCopyAssessmentMutation, type Assessment } from './assessmentsApi';
import { useTranslation } from '../../i18n/react';

interface CopyDialogProps {
  assessment: Assessment;
  show: boolean;
  onHide: () => void;
}

export function CopyDialog({ assessment, show, onHide }: CopyDialogProps) {
  const { t } = useTranslation('assessments');
  const navigate = useNavigate();
  const toast = useToast();
  const classes = useGetClassesQuery(undefined, { skip: !show });
  const [copy, state] = useCopyAssessmentMutation();
  const [classId, setClassId] = useState('');
  const [title, setTitle] = useState(assessment.title);
  const [error, setError] = useState<string | null>(null);
  const chosen = classId || classes.data?.find((c) => c.id !== assessment.classId)?.id || assessment.classId;

  const onSubmit = async () => {
    setError(null);
    try {
      const created = await copy({ id: assessment.id, body: { classId: chosen, title: title.trim() } }).unwrap();
      toast({ title: t('copy.copied'), description: t('copy.copiedText', { name: created.className }) });
      onHide();
      void navigate(`/assessment-preview/${created.id}`);
    } catch (e) {
      const fields = isApiError(e) ? (e.fields ?? {}) : {};
      setError(Object.values(fields)[0] ?? serverMessageOr(e, t('copy.failed')));
    }
  };

  return (
    <Modal show={show} onHide={onHide} aria-labelledby="copy-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="copy-dialog-title">{t('copy.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="small text-body-secondary">{t('copy.intro')}</p>
        {classes.data && (
          <ClassPicker id="copy-class" classes={classes.data} value={chosen} onChange={setClassId} className="mb-3" />
        )}
        <Form.Group controlId="copy-title">
          <Form.Label className="fw-semibold">{t('copy.titleLabel')}</Form.Label>
          <Form.Control value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
        </Form.Group>
        {error && (
          <Alert variant="danger" className="mt-3 mb-0" role="alert">
            {error}
          </Alert>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onHide}>
          {t('cancel')}
        </Button>
        <Button onClick={() => void onSubmit()} disabled={!title.trim() || state.isLoading}>
          {state.isLoading ? t('copy.copying') : t('copy.submit')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
