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

// Loaded when first opened: the class form and its schema stay out of the page's first load.
const CreateClassModal = lazyModal(() => import('./CreateClassModal').then((m) => m.CreateClassModal));
const EditClassModal = lazyModal(
  () => import('./EditClassModal').then((m) => m.EditClassModal),
  (props) => props.cls !== null,
);

export const ARCHIVE_CONFIRM =
  'The class will be hidden from your main view but can be restored later. Students and results are kept.';
export const DELETE_CONFIRM =
  'This action cannot be undone and will permanently remove all associated data, including student enrollments.';

export function ClassesPage() {
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
    toast({ title: 'Error', description: serverMessageOr(err, fallback), variant: 'destructive' });

  const confirmArchive = async () => {
    if (!archiving) return;
    try {
      await archiveClass(archiving.id).unwrap();
      toast({ title: 'Success', description: 'Class archived successfully' });
    } catch (err) {
      failed(err, 'Failed to archive class');
    }
    setArchiving(null);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteClass(deleting.id).unwrap();
      toast({ title: 'Success', description: 'Class deleted successfully' });
    } catch (err) {
      failed(err, 'Failed to delete class');
    }
    setDeleting(null);
  };

  const restore = async (cls: ClassItem) => {
    try {
      await restoreClass(cls.id).unwrap();
      toast({ title: 'Success', description: 'Class restored successfully' });
    } catch (err) {
      failed(err, 'Failed to restore class');
    }
  };

  const classes = data ?? [];

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-4">
        <div className="flex-grow-1">
          <h1 className="h2 mb-1">{showArchived ? 'Archived Classes' : 'My Classes'}</h1>
          <p className="text-body-secondary mb-0">
            {showArchived ? 'Restore a class to bring it back to your main view' : 'Manage your classes and students'}
          </p>
        </div>
        <Button variant="outline-secondary" onClick={() => setShowArchived((v) => !v)}>
          {showArchived ? 'Show Active' : 'Show Archived'}
        </Button>
        <Button onClick={() => setCreating(true)}>Create Class</Button>
      </div>

      {isLoading ? (
        <PageSpinner />
      ) : error ? (
        <Alert variant="danger">{serverMessageOr(error, 'Failed to load classes')}</Alert>
      ) : classes.length === 0 ? (
        <Card className="shadow-sm text-center">
          <Card.Body className="p-5">
            {showArchived ? (
              <>
                <h2 className="h4">No archived classes</h2>
                <p className="text-body-secondary mb-0">Classes you archive will appear here.</p>
              </>
            ) : (
              <>
                <h2 className="h4">No classes yet</h2>
                <p className="text-body-secondary mb-4">Create your first class to start tracking student progress.</p>
                <Button onClick={() => setCreating(true)}>Create Your First Class</Button>
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
        title="Archive Class"
        confirmLabel="Archive Class"
        pendingLabel="Archiving..."
        variant="warning"
        pending={archiveState.isLoading}
        onConfirm={() => void confirmArchive()}
        onCancel={() => setArchiving(null)}
      >
        <p className="mb-2">Are you sure you want to archive &quot;{archiving?.name}&quot;?</p>
        <p className="mb-0 text-body-secondary">{ARCHIVE_CONFIRM}</p>
      </ConfirmModal>
      <ConfirmModal
        show={deleting !== null}
        title="Delete Class"
        confirmLabel="Delete Class"
        pendingLabel="Deleting..."
        pending={deleteState.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p className="mb-2">Are you sure you want to delete &quot;{deleting?.name}&quot;?</p>
        <p className="mb-0 text-body-secondary">{DELETE_CONFIRM}</p>
      </ConfirmModal>
    </>
  );
}
