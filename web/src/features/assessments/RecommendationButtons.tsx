// The AI Recommendation buttons (Support, Enrichment) of one assessment and the dialog they open
// (RecommendationModal). Offered wherever a teacher the generation service answers meets the
// assessment: their assessments' cards, and its preview and results pages, which a teacher of a
// class it is assigned to from another class reaches too (then written from their classes' results).
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { PracticeType } from './assessmentsApi';
import { RecommendationModal, type RecommendedAssessment } from './RecommendationModal';
import { useTranslation } from '../../i18n/react';

export function RecommendationButtons({
  assessment,
  className = 'mb-3',
}: {
  assessment: RecommendedAssessment;
  className?: string;
}) {
  const { t } = useTranslation('assessments');
  const [type, setType] = useState<PracticeType | null>(null);
  const headingId = `recommendation-buttons-${assessment.id}`;
  return (
    <div className={className} role="group" aria-labelledby={headingId}>
      <div className="small fw-semibold mb-1" id={headingId}>
        {t('recommendation.heading')}
      </div>
      <div className="d-flex gap-2">
        <Button size="sm" variant="outline-warning" onClick={() => setType('support')}>
          {t('recommendation.support')}
        </Button>
        <Button size="sm" variant="outline-success" onClick={() => setType('enrichment')}>
          {t('recommendation.enrichment')}
        </Button>
      </div>
      <RecommendationModal
        assessment={type === null ? null : assessment}
        type={type ?? 'support'}
        onHide={() => setType(null)}
      />
    </div>
  );
}
