// The preview modal: every question, Active or Inactive with the lifecycle beside it
// ("Draft" means not yet assigned, LifecycleBadge.tsx), and the activate toggle (for those who may
// change it: `canEdit`).
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useUpdateAssessmentMutation, type Assessment, type Question } from './assessmentsApi';
import { ActivityBadge, LifecycleBadge } from './LifecycleBadge';
import { QuestionPreview } from './QuestionPreview';
import { useTranslation } from '../../i18n/react';

interface Props {
  show: boolean;
  onHide: () => void;
  assessment: Assessment;
  questions: Question[];
}

export function AssessmentPreviewModal({ show, onHide, assessment, questions }: Props) {
  const { t } = useTranslation('assessments');
  const toast = useToast();
  const [update, { isLoading }] = useUpdateAssessmentMutation();

  const toggle = async () => {
    const isActive = !assessment.isActive;
    try {
      await update({ id: assessment.id, body: { isActive } }).unwrap();
      toast({
        title: isActive ? t('previewModal.activated') : t('previewModal.deactivated'),
        description: isActive ? t('previewModal.nowActive') : t('previewModal.nowInactive'),
      });
    } catch (error) {
      toast({
        title: t('previewModal.updateFailed'),
        description: serverMessageOr(error, t('previewModal.updateFailedText')),
        variant: 'destructive',
      });
    }
  };

  return (
    <Modal show={show} onHide={onHide} size="lg" scrollable aria-labelledby="assessment-preview-modal-title">
      <Modal.Header closeButton closeLabel={t('close')}>
        <Modal.Title id="assessment-preview-modal-title" className="d-flex align-items-center gap-2">
          {assessment.title}
          <ActivityBadge assessment={assessment} testId="preview-status" />
          <LifecycleBadge assessment={assessment} />
        </Modal.Title>
      </Modal.Header>
      {/* Scrollable: it takes the focus so that a keyboard can scroll it (axe scrollable-region-focusable). */}
      <Modal.Body tabIndex={0} role="region" aria-label={t('previewModal.questions')}>
        {assessment.description && <p className="text-body-secondary">{assessment.description}</p>}
        {questions.length === 0 ? (
          <p>{t('preview.noQuestions')}</p>
        ) : (
          <ol className="list-group list-unstyled">
            {questions.map((q, i) => (
              <QuestionPreview key={q.id} question={q} index={i} />
            ))}
          </ol>
        )}
      </Modal.Body>
      <Modal.Footer>
        {/* Activating is a change: its own class's teachers only. */}
        {assessment.canEdit && (
          <Button
            variant={assessment.isActive ? 'outline-warning' : 'success'}
            onClick={() => void toggle()}
            disabled={isLoading}
          >
            {assessment.isActive ? t('previewModal.deactivate') : t('previewModal.activate')}
          </Button>
        )}
        <Button variant="secondary" onClick={onHide}>
          {t('close')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
