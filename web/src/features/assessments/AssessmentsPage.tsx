// /assessments: the teacher's assessments as cards, active or inactive only, with real
// response counts, AI recommendations, preview, results and delete; each card says where the
// assessment is in its life (draft, assigned to which class, closed) and when it is due.
import { useState } from 'react';
import { Link } from 'react-router';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import { useDeleteAssessmentMutation, useGetAssessmentsQuery, type Assessment } from './assessmentsApi';
import { CreateAssessmentModal } from './CreateAssessmentModal';
import { lazyModal } from '../../app/lazyModal';
import { formatDate, formatDateTime } from './format';
import { ActivityBadge, isPastDue, LifecycleBadge, lifecycleHint } from './LifecycleBadge';
import { RecommendationButtons } from './RecommendationButtons';
import { useAuth } from '../../session/useAuth';
import { DistrictAssessments } from '../commonAssessments';
import { useTranslation } from '../../i18n/react';

// Loaded when first opened.
const QtiImportDialog = lazyModal(() => import('./QtiImportDialog').then((m) => m.QtiImportDialog));

function AssessmentCard({ assessment, onDelete }: { assessment: Assessment; onDelete: (a: Assessment) => void }) {
  const a = assessment;
  const { t } = useTranslation('assessments');
  return (
    <Card className="shadow-sm h-100" as="article" aria-labelledby={`assessment-${a.id}-title`}>
      <Card.Body className="d-flex flex-column">
        <div className="d-flex justify-content-between align-items-start gap-2 mb-2">
          <Card.Title as="h2" className="h5 mb-0" id={`assessment-${a.id}-title`}>
            {a.title}
          </Card.Title>
          <ActivityBadge assessment={a} />
        </div>
        <div className="mb-2">
          <LifecycleBadge assessment={a} />
          <div className="small text-body-secondary mt-1">{lifecycleHint(a, t)}</div>
        </div>
        {a.description && <Card.Text className="text-body-secondary">{a.description}</Card.Text>}
        <dl className="small mb-3">
          {(a.standard || a.topic) && (
            <div>
              <dt className="d-inline">{t('list.card.standard')}</dt>
              <dd className="d-inline text-break">{(a.standard || a.topic).slice(0, 120)}</dd>
            </div>
          )}
          {a.className && (
            <div>
              <dt className="d-inline">{t('list.card.class')}</dt>
              <dd className="d-inline">{a.className}</dd>
            </div>
          )}
          <div>
            <dt className="d-inline">{t('list.card.created')}</dt>
            <dd className="d-inline">{formatDate(a.createdAt)}</dd>
          </div>
          {a.dueDate && (
            <div>
              <dt className="d-inline">{t('list.card.due')}</dt>
              <dd className="d-inline">
                {formatDateTime(a.dueDate)}
                {isPastDue(a) && (
                  <Badge bg="warning" text="dark" className="ms-2">
                    {t('list.card.pastDue')}
                  </Badge>
                )}
              </dd>
            </div>
          )}
        </dl>
        <div className="mb-3">
          <Badge bg="light" text="dark" className="border" data-testid="responses-badge">
            {t('list.card.responses', { responses: a.responseCount ?? 0, assigned: a.assignedCount ?? 0 })}
          </Badge>{' '}
          <Badge bg="light" text="dark">
            {t('questionCount', { count: a.questionCount })}
          </Badge>
        </div>
        <RecommendationButtons assessment={a} />
        <div className="mt-auto d-flex gap-2 flex-wrap">
          <Link className="btn btn-primary btn-sm" to={`/assessment-preview/${a.id}`}>
            {t('previewButton')}
          </Link>
          <Link
            className="btn btn-outline-secondary btn-sm"
            to={`/assessment-results/${a.id}`}
            aria-label={t('list.card.resultsLabel', { title: a.title })}
          >
            {t('results')}
          </Link>
          <Button
            size="sm"
            variant="outline-danger"
            className="ms-auto"
            onClick={() => onDelete(a)}
            aria-label={t('list.card.deleteLabel', { title: a.title })}
          >
            {t('delete')}
          </Button>
        </div>
      </Card.Body>
    </Card>
  );
}

export function AssessmentsPage() {
  const { t } = useTranslation('assessments');
  const toast = useToast();
  const { data, isLoading, isError } = useGetAssessmentsQuery();
  // A district teacher also sees the district's common assessments that reach their classes.
  const inDistrict = useAuth().user?.accountType === 'district';
  const [deleteAssessment, deleteState] = useDeleteAssessmentMutation();
  const [showInactive, setShowInactive] = useState(false);
  const [creating, setCreating] = useState(false);
  const [importingQti, setImportingQti] = useState(false);
  const [doomed, setDoomed] = useState<Assessment | null>(null);

  if (isLoading) return <PageSpinner />;
  const all = data ?? [];
  const shown = all.filter((a) => a.isActive === !showInactive);

  const confirmDelete = async () => {
    if (!doomed) return;
    try {
      await deleteAssessment(doomed.id).unwrap();
      toast({ title: t('list.deleted'), description: t('list.deletedText', { title: doomed.title }) });
    } catch (error) {
      toast({
        title: t('list.deleteFailed'),
        description: serverMessageOr(error, t('list.deleteFailedText')),
        variant: 'destructive',
      });
    } finally {
      setDoomed(null);
    }
  };

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-4">
        <div>
          <h1 className="h2 mb-1">{showInactive ? t('list.inactiveTitle') : t('list.title')}</h1>
          <p className="text-body-secondary mb-0">{t('list.intro')}</p>
        </div>
        <div className="d-flex gap-2">
          <Button variant="outline-secondary" onClick={() => setShowInactive((v) => !v)}>
            {showInactive ? t('list.showActive') : t('list.showInactive')}
          </Button>
          <Button variant="outline-primary" onClick={() => setImportingQti(true)}>
            {t('list.importQti')}
          </Button>
          <Button onClick={() => setCreating(true)}>{t('list.create')}</Button>
        </div>
      </div>
      {inDistrict && !showInactive && <DistrictAssessments />}
      {isError ? (
        <p className="text-danger">{t('list.loadFailed')}</p>
      ) : shown.length === 0 ? (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            <h2 className="h4">{all.length === 0 || !showInactive ? t('list.none') : t('list.noInactive')}</h2>
            <p className="text-body-secondary mb-0">{showInactive ? t('list.inactiveText') : t('list.noneText')}</p>
          </Card.Body>
        </Card>
      ) : (
        <Row xs={1} md={2} xl={3} className="g-4">
          {shown.map((a) => (
            <Col key={a.id}>
              <AssessmentCard assessment={a} onDelete={setDoomed} />
            </Col>
          ))}
        </Row>
      )}
      <CreateAssessmentModal show={creating} classId={undefined} onHide={() => setCreating(false)} />
      <QtiImportDialog show={importingQti} onHide={() => setImportingQti(false)} />
      <Modal show={doomed !== null} onHide={() => setDoomed(null)} aria-labelledby="delete-assessment-title">
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id="delete-assessment-title">{t('list.deleteAsk', { title: doomed?.title ?? '' })}</Modal.Title>
        </Modal.Header>
        <Modal.Body>{t('list.deleteConfirm')}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setDoomed(null)}>
            {t('cancel')}
          </Button>
          <Button variant="danger" onClick={() => void confirmDelete()} disabled={deleteState.isLoading}>
            {deleteState.isLoading ? t('list.deleting') : t('delete')}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}
