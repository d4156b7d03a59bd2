// AI Recommendation for the teacher (support or enrichment), generated from the assessment and its
// results so far; downloadable as a text file or opened in a new tab (a Blob URL).
import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useLazyGetRecommendationQuery, type Assessment, type PracticeType } from './assessmentsApi';

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

function textBlob(text: string): Blob {
  return new Blob([text], { type: 'text/plain;charset=utf-8' });
}

export function RecommendationModal({ assessment, type, onHide }: Props) {
  const [load, { data, isFetching, isError }] = useLazyGetRecommendationQuery();

  const id = assessment?.id;
  useEffect(() => {
    if (id) void load({ id, type });
  }, [id, type, load]);

  const title = type === 'support' ? 'Support Recommendation' : 'Enrichment Recommendation';
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
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="recommendation-title">
          {title}
          {assessment && <div className="fs-6 text-body-secondary fw-normal">{assessment.title}</div>}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {isError && !isFetching ? (
          <Alert variant="danger">Failed to load the recommendation. Please try again.</Alert>
        ) : !ready ? (
          <div className="d-flex align-items-center gap-2 mb-0">
            <Spinner animation="border" size="sm" aria-hidden="true" /> Generating recommendation...
          </div>
        ) : (
          <>
            <pre className="mb-2" style={{ whiteSpace: 'pre-wrap', fontFamily: 'inherit' }}>
              {data.text}
            </pre>
            <p className="small text-body-secondary mb-0">
              {data.provider === 'openai' ? 'Generated with OpenAI' : 'Generated offline from your text'} ·{' '}
              {new Date(data.generatedAt).toLocaleString()}
            </p>
          </>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-primary" onClick={download} disabled={!ready}>
          Download
        </Button>
        <Button variant="outline-primary" onClick={openInTab} disabled={!ready}>
          Open in new tab
        </Button>
        <Button variant="secondary" onClick={onHide}>
          Close
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
