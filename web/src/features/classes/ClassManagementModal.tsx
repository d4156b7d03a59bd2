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
import type { TFunction } from '../../i18n/i18n';
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

export function memberName(member: ClassMember, t?: TFunction): string {
  const name = [member.student.firstName, member.student.lastName].filter(Boolean).join(' ');
  return name || member.student.email || (t ? t('teacher:manage.unknownStudent') : 'Unknown student');
}

function StudentList({ classId }: { classId: string }) {
  const { data: members, isLoading, error } = useGetClassStudentsQuery(classId);
  const [removeStudent, { isLoading: removing }] = useRemoveStudentMutation();
  const [confirming, setConfirming] = useState<ClassMember | null>(null);
  const toast = useToast();
  const { t } = useTranslation('teacher');

  if (isLoading) {
    return (
      <div className="text-center py-4">
        <Spinner animation="border" size="sm" role="status">
          <span className="visually-hidden">{t('manage.loading')}</span>
        </Spinner>
      </div>
    );
  }
  if (error) return <Alert variant="danger">{serverMessageOr(error, t('manage.loadFailed'))}</Alert>;
  if (!members || members.length === 0) {
    return <p className="text-body-secondary text-center py-4 mb-0">{t('manage.none')}</p>;
  }

  const remove = async (member: ClassMember) => {
    try {
      await removeStudent({ id: classId, studentId: member.student.id }).unwrap();
      toast({ title: t('common:success'), description: t('manage.removed', { name: memberName(member, t) }) });
    } catch (err) {
      toast({
        title: t('common:toast.error'),
        description: serverMessageOr(err, t('manage.removeFailed')),
        variant: 'destructive',
      });
    } finally {
      setConfirming(null);
    }
  };

  return (
    <>
      {confirming && (
        <Alert variant="warning" role="alertdialog" aria-label={t('manage.confirmLabel')}>
          <p className="mb-2">{t('manage.confirm', { name: memberName(confirming, t) })}</p>
          <div className="d-flex gap-2">
            <Button size="sm" variant="danger" disabled={removing} onClick={() => void remove(confirming)}>
              {removing ? t('manage.removing') : t('manage.removeStudent')}
            </Button>
            <Button size="sm" variant="outline-secondary" disabled={removing} onClick={() => setConfirming(null)}>
              {t('common:cancel')}
            </Button>
          </div>
        </Alert>
      )}
      <ListGroup aria-label={t('manage.students')}>
        {members.map((member) => (
          <ListGroup.Item key={member.id} className="d-flex align-items-center gap-3">
            <div className="flex-grow-1">
              <div className="fw-semibold">{memberName(member, t)}</div>
              <div className="small text-body-secondary">{member.student.email}</div>
              <div className="small text-body-secondary">
                {t('manage.joined', { date: formatDate(member.joinedAt) })}
              </div>
            </div>
            <Button
              size="sm"
              variant="outline-danger"
              aria-label={t('manage.removeLabel', { name: memberName(member, t) })}
              onClick={() => setConfirming(member)}
            >
              {t('manage.remove')}
            </Button>
          </ListGroup.Item>
        ))}
      </ListGroup>
    </>
  );
}

function ManageStudents({ selected, onSelect }: { selected: string | undefined; onSelect: (id: string) => void }) {
  const { data: classes } = useGetClassesQuery();
  const { t } = useTranslation('teacher');
  const list = classes ?? [];
  const current = list.find((c) => c.id === selected) ?? list[0];
  if (!current) {
    return <p className="text-body-secondary text-center py-4 mb-0">{t('manage.createFirst')}</p>;
  }
  return (
    <>
      <Form.Group className="mb-3" controlId="manage-class">
        <Form.Label>{t('classPicker.label')}</Form.Label>
        <Form.Select value={current.id} onChange={(e) => onSelect(e.target.value)}>
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {[c.name, periodLabel(c.period, t)].filter(Boolean).join(' - ')}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <p className="small text-body-secondary">
        {t('manage.joinWith')} <span className="font-monospace fw-semibold">{current.joinCode}</span>
        {t('manage.joinWithEnd')}
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
          {t('manage.title')}
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
          <Tab eventKey="create" title={t('classes.create')}>
            <ClassForm
              variant="dashboard"
              idPrefix="manage-create-class"
              submitLabel={t('classes.create')}
              pendingLabel={t('classes.creating')}
              pending={isLoading}
              onSubmit={async (values) => {
                try {
                  const created = await createClass(values).unwrap();
                  toast({ title: t('common:success'), description: t('classes.created') });
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
          <Tab eventKey="manage" title={t('classPage.manageStudents')}>
            <ManageStudents selected={selected} onSelect={setSelected} />
          </Tab>
        </Tabs>
      </Modal.Body>
    </Modal>
  );
}
