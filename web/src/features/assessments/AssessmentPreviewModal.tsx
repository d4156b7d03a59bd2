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

interface Props {
  show: boolean;
  onHide: () => void;
  assessment: Assessment;
  questions: Question[];
}

export function AssessmentPreviewModal({ show, onHide, assessment, questions }: Props) {
  const toast = useToast();
  const [update, { isLoading }] = useUpdateAssessmentMutation();

  const toggle = async () => {
    const isActive = !assessment.isActive;
    try {
      await update({ id: assessment.id, body: { isActive } }).unwrap();
      toast({
        title: isActive ? 'Assessment Activated' : 'Assessment Deactivated',
        description: `Assessment is now ${isActive ? 'active' : 'inactive'} for students.`,
      });
    } catch (error) {
      toast({
        title: 'Update Failed',
        description: serverMessageOr(error, 'Failed to update assessment'),
        variant: 'destructive',
      });
    }
  };

  return (
    <Modal show={show} onHide={onHide} size="lg" scrollable aria-labelledby="assessment-preview-modal-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="assessment-preview-modal-title" className="d-flex align-items-center gap-2">
          {assessment.title}
          <ActivityBadge assessment={assessment} testId="preview-status" />
          <LifecycleBadge assessment={assessment} />
        </Modal.Title>
      </Modal.Header>
      {/* Scrollable: it takes the focus so that a keyboard can scroll it (axe scrollable-region-focusable). */}
      <Modal.Body tabIndex={0} role="region" aria-label="Questions">
        {assessment.description && <p className="text-body-secondary">{assessment.description}</p>}
        {questions.length === 0 ? (
          <p>No questions yet.</p>
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
            {assessment.isActive ? 'Deactivate' : 'Activate'}
          </Button>
        )}
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
