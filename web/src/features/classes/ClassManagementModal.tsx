// Class Management modal: tabs 'Create Class' and 'Manage Students'; creating a
// class switches to Manage Students with the new class chosen. Students can be removed (confirmed).
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import Tab from 'react-bootstrap/Tab';
import Tabs from 'react-bootstrap/Tabs';
import { planLimitMessage, serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { ClassForm } from './ClassForm';
import { useTranslation } from '../../i18n/react';
import { formatDate, periodLabel } from './classStats';
import {
  useCreateClassMutation,
  useGetClassesQuery,
  useGetClassStudentsQuery,
  useRemoveStudentMutation,
  type ClassMember,
} from './classesApi';

type TabKey = 'create' | 'manage';

interface ClassManagementModalProps {
  show: boolean;
  onHide: () => void;
  /** The class whose students show first (the dashboard's first class, or the detail page's). */
  classId: string | undefined;
  defaultTab?: TabKey;
}

export function memberName(member: ClassMember): string {
  const name = [member.student.firstName, member.student.lastName].filter(Boolean).join(' ');
  return name || member.student.email || 'Unknown student';
}

function StudentList({ classId }: { classId: string }) {
  const { data: members, isLoading, error } = useGetClassStudentsQuery(classId);
  const [removeStudent, { isLoading: removing }] = useRemoveStudentMutation();
  const [confirming, setConfirming] = useState<ClassMember | null>(null);
  const toast = useToast();

  if (isLoading) {
    return (
      <div className="text-center py-4">
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">Loading students</span>
        </Spinner>
      </div>
    );
  }
  if (error) return <Alert variant="danger">{serverMessageOr(error, 'Failed to load students')}</Alert>;
  if (!members || members.length === 0) {
    return <p className="text-body-secondary text-center py-4 mb-0">No students in this class yet.</p>;
  }

  const remove = async (member: ClassMember) => {
    try {
      await removeStudent({ id: classId, studentId: member.student.id }).unwrap();
      toast({ title: 'Success', description: `${memberName(member)} was removed from the class` });
    } catch (err) {
      toast({ title: 'Error', description: serverMessageOr(err, 'Failed to remove student'), variant: 'destructive' });
    } finally {
      setConfirming(null);
    }
  };

  return (
    <>
      {confirming && (
        <Alert variant="warning" role="alertdialog" aria-label="Confirm removal">
          <p className="mb-2">
            Remove {memberName(confirming)} from this class? They will no longer see its assessments.
          </p>
          <div className="d-flex gap-2">
            <Button size="sm" variant="danger" disabled={removing} onClick={() => void remove(confirming)}>
              {removing ? 'Removing...' : 'Remove Student'}
            </Button>
            <Button size="sm" variant="outline-secondary" disabled={removing} onClick={() => setConfirming(null)}>
              Cancel
            </Button>
          </div>
        </Alert>
      )}
      <ListGroup aria-label="Students">
        {members.map((member) => (
          <ListGroup.Item key={member.id} className="d-flex align-items-center gap-3">
            <div className="flex-grow-1">
              <div className="fw-semibold">{memberName(member)}</div>
              <div className="small text-body-secondary">{member.student.email}</div>
              <div className="small text-body-secondary">Joined {formatDate(member.joinedAt)}</div>
            </div>
            <Button
              size="sm"
              variant="outline-danger"
              aria-label={`Remove ${memberName(member)}`}
              onClick={() => setConfirming(member)}
            >
              Remove
            </Button>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </>
  );
}

function ManageStudents({ selected, onSelect }: { selected: string | undefined; onSelect: (id: string) => void }) {
  const { data: classes } = useGetClassesQuery();
  const list = classes ?? [];
  const current = list.find((c) => c.id === selected) ?? list[0];
  if (!current) {
    return <p className="text-body-secondary text-center py-4 mb-0">Create a class first to manage its students.</p>;
  }
  return (
    <>
      <Form.Group className="mb-3" controlId="manage-class">
        <Form.Label>Class</Form.Label>
        <Form.Select value={current.id} onChange={(e) => onSelect(e.target.value)}>
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {[c.name, periodLabel(c.period)].filter(Boolean).join(' - ')}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <p className="small text-body-secondary">
        Students join with the class code <span className="font-monospace fw-semibold">{current.joinCode}</span>.
      </p>
      <StudentList key={current.id} classId={current.id} />
    </>
  );
}

export function ClassManagementModal({ show, onHide, classId, defaultTab = 'manage' }: ClassManagementModalProps) {
  const [tab, setTab] = useState<TabKey>(defaultTab);
  const [selected, setSelected] = useState<string | undefined>(classId);
  const [createClass, { isLoading }] = useCreateClassMutation();
  const toast = useToast();
  const { t } = useTranslation('teacher');

  const onEnter = () => {
    setTab(defaultTab);
    setSelected(classId);
  };

  return (
    <Modal show={show} onHide={onHide} onEnter={onEnter} size="lg" centered aria-labelledby="class-management-title">
      <Modal.Header closeButton>
        <Modal.Title id="class-management-title" as="h2" className="h5">
          Class Management
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Tabs
          id="class-management-tabs"
          activeKey={tab}
          onSelect={(key) => setTab(key === 'create' ? 'create' : 'manage')}
          className="mb-3"
          mountOnEnter
          unmountOnExit
          transition={false}
        >
          <Tab eventKey="create" title="Create Class">
            <ClassForm
              variant="dashboard"
              idPrefix="manage-create-class"
              submitLabel="Create Class"
              pendingLabel="Creating..."
              pending={isLoading}
              onSubmit={async (values) => {
                try {
                  const created = await createClass(values).unwrap();
                  toast({ title: 'Success', description: 'Class created successfully!' });
                  setSelected(created.id);
                  setTab('manage');
                } catch (err) {
                  toast({
                    title: t('common:toast.error'),
                    description: planLimitMessage(err) ?? t('classes.createFailed'),
                    variant: 'destructive',
                  });
                }
              }}
            />
          </Tab>
          <Tab eventKey="manage" title="Manage Students">
            <ManageStudents selected={selected} onSelect={setSelected} />
          </Tab>
        </Tabs>
      </Modal.Body>
    </Modal>
  );
}
