// /classes: My Classes grid, Show Archived / Show Active, Create Class, edit,
// View Details, archive / restore / delete with their confirms and toasts, empty states.
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import { ClassCard } from './ClassCard';
import { ConfirmModal } from './ConfirmModal';
import {
  useArchiveClassMutation,
  useDeleteClassMutation,
  useGetArchivedClassesQuery,
  useGetClassesQuery,
  useRestoreClassMutation,
  type ClassItem,
} from './classesApi';
import { lazyModal } from '../../app/lazyModal';
import { useTranslation } from '../../i18n/react';

// Loaded when first opened: the class form and its schema stay out of the page's first load.
const CreateClassModal = lazyModal(() => import('./CreateClassModal').then((m) => m.CreateClassModal));
const EditClassModal = lazyModal(
  () => import('./EditClassModal').then((m) => m.EditClassModal),
  (props) => props.cls !== null,
);

export function ClassesPage() {
  const { t } = useTranslation('teacher');
  const [showArchived, setShowArchived] = useState(false);
  const active = useGetClassesQuery(undefined, { skip: showArchived });
  // The archived list is only asked for while the archived view is on.
  const archived = useGetArchivedClassesQuery(undefined, { skip: !showArchived });
  const { data, isLoading, error } = showArchived ? archived : active;

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ClassItem | null>(null);
  const [archiving, setArchiving] = useState<ClassItem | null>(null);
  const [deleting, setDeleting] = useState<ClassItem | null>(null);
  const [archiveClass, archiveState] = useArchiveClassMutation();
  const [deleteClass, deleteState] = useDeleteClassMutation();
  const [restoreClass, restoreState] = useRestoreClassMutation();
  const toast = useToast();

  const failed = (err: unknown, fallback: string) =>
    toast({ title: t('common:toast.error'), description: serverMessageOr(err, fallback), variant: 'destructive' });

  const confirmArchive = async () => {
    if (!archiving) return;
    try {
      await archiveClass(archiving.id).unwrap();
      toast({ title: t('common:success'), description: t('classes.archived') });
    } catch (err) {
      failed(err, t('classes.archiveFailed'));
    }
    setArchiving(null);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteClass(deleting.id).unwrap();
      toast({ title: t('common:success'), description: t('classes.deleted') });
    } catch (err) {
      failed(err, t('classes.deleteFailed'));
    }
    setDeleting(null);
  };

  const restore = async (cls: ClassItem) => {
    try {
      await restoreClass(cls.id).unwrap();
      toast({ title: t('common:success'), description: t('classes.restored') });
    } catch (err) {
      failed(err, t('classes.restoreFailed'));
    }
  };

  const classes = data ?? [];

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-4">
        <div className="flex-grow-1">
          <h1 className="h2 mb-1">{showArchived ? t('classes.archivedTitle') : t('classes.title')}</h1>
          <p className="text-body-secondary mb-0">{showArchived ? t('classes.archivedIntro') : t('classes.intro')}</p>
        </div>
        <Button variant="outline-secondary" onClick={() => setShowArchived((v) => !v)}>
          {showArchived ? t('classes.showActive') : t('classes.showArchived')}
        </Button>
        <Button onClick={() => setCreating(true)}>{t('classes.create')}</Button>
      </div>

      {isLoading ? (
        <PageSpinner />
      ) : error ? (
        <Alert variant="danger">{serverMessageOr(error, t('classes.loadFailed'))}</Alert>
      ) : classes.length === 0 ? (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            {showArchived ? (
              <>
                <h2 className="h4">{t('classes.noArchived')}</h2>
                <p className="text-body-secondary mb-0">{t('classes.noArchivedText')}</p>
              </>
            ) : (
              <>
                <h2 className="h4">{t('classes.none')}</h2>
                <p className="text-body-secondary mb-4">{t('classes.noneText')}</p>
                <Button onClick={() => setCreating(true)}>{t('classes.createFirst')}</Button>
              </>
            )}
          </Card.Body>
        </Card>
      ) : (
        <Row xs={1} md={2} lg={3} className="g-4">
          {classes.map((cls) => (
            <Col key={cls.id}>
              <ClassCard
                cls={cls}
                restoring={restoreState.isLoading && restoreState.originalArgs === cls.id}
                onEdit={setEditing}
                onArchive={setArchiving}
                onRestore={(c) => void restore(c)}
                onDelete={setDeleting}
              />
            </Col>
          ))}
        </Row>
      )}

      <CreateClassModal show={creating} variant="full" onHide={() => setCreating(false)} />
      <EditClassModal cls={editing} onHide={() => setEditing(null)} />
      <ConfirmModal
        show={archiving !== null}
        title={t('classes.archive')}
        confirmLabel={t('classes.archive')}
        pendingLabel={t('classes.archiving')}
        variant="warning"
        pending={archiveState.isLoading}
        onConfirm={() => void confirmArchive()}
        onCancel={() => setArchiving(null)}
      >
        <p className="mb-2">{t('classes.archiveAsk', { name: archiving?.name })}</p>
        <p className="mb-0 text-body-secondary">{t('classes.archiveConfirm')}</p>
      </ConfirmModal>
      <ConfirmModal
        show={deleting !== null}
        title={t('classes.delete')}
        confirmLabel={t('classes.delete')}
        pendingLabel={t('classes.deleting')}
        pending={deleteState.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p className="mb-2">{t('classes.deleteAsk', { name: deleting?.name })}</p>
        <p className="mb-0 text-body-secondary">{t('classes.deleteConfirm')}</p>
      </ConfirmModal>
    </>
  );
}
