// AI Recommendation for the teacher (support or enrichment), generated from the assessment and its
// results so far; downloadable as a text file or opened in a new tab (a Blob URL).
import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useLazyGetRecommendationQuery, type Assessment, type PracticeType } from './assessmentsApi';
import { formatDateTime } from '../../i18n/format';
import { useTranslation } from '../../i18n/react';

/** What the dialog needs of the assessment (the assessment's read model or its results' summary). */
export type RecommendedAssessment = Pick<Assessment, 'id' | 'title'>;

interface Props {
  assessment: RecommendedAssessment | null;
  type: PracticeType;
  onHide: () => void;
}

function fileName(title: string, type: PracticeType): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${slug || 'assessment'}-${type}-recommendation.txt`;
}

/** When it was generated, as toLocaleString() says it (3/2/2026, 10:00:00 AM) in the interface's language. */
const GENERATED_AT: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
};

function textBlob(text: string): Blob {
  return new Blob([text], { type: 'text/plain;charset=utf-8' });
}

export function RecommendationModal({ assessment, type, onHide }: Props) {
  const { t } = useTranslation('assessments');
  const [load, { data, isFetching, isError }] = useLazyGetRecommendationQuery();

  const id = assessment?.id;
  useEffect(() => {
    if (id) void load({ id, type });
  }, [id, type, load]);

  const title = type === 'support' ? t('recommendation.supportTitle') : t('recommendation.enrichmentTitle');
  const ready = data && !isFetching && data.type === type;

  const download = () => {
    if (!assessment || !data) return;
    const url = URL.createObjectURL(textBlob(data.text));
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName(assessment.title, type);
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  const openInTab = () => {
    if (!data) return;
    const url = URL.createObjectURL(textBlob(data.text));
    window.open(url, '_blank', 'noopener');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };

  return (
    <Modal show={assessment !== null} onHide={onHide} size="lg" aria-labelledby="recommendation-title">
      <Modal.Header closeButton closeLabel={t('close')}>
        <Modal.Title id="recommendation-title">
          {title}
          {assessment && <div className="fs-6 text-body-secondary fw-normal">{assessment.title}</div>}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {isError && !isFetching ? (
          <Alert variant="danger">{t('recommendation.failed')}</Alert>
        ) : !ready ? (
          <div className="d-flex align-items-center gap-2 mb-0">
            <Spinner animation="border" size="sm" aria-hidden="true" /> {t('recommendation.generating')}
          </div>
        ) : (
          <>
            <pre className="mb-2" style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
              {data.text}
            </pre>
            <p className="small text-body-secondary mb-0">
              {data.provider === 'openai' ? t('recommendation.openai') : t('recommendation.offline')} ·{' '}
              {formatDateTime(data.generatedAt, GENERATED_AT)}
            </p>
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-primary" onClick={download} disabled={!ready}>
          {t('recommendation.download')}
        </Button>
        <Button variant="outline-primary" onClick={openInTab} disabled={!ready}>
          {t('recommendation.open')}
        </Button>
        <Button variant="secondary" onClick={onHide}>
          {t('close')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
