// The class page's "Teachers" section (issue 30, item 8): the owner and the co-teachers. The owner
// adds a teacher of the same school or district by email and removes co-teachers; an address of the
// district without an account yet is invited (listed as invited until the account exists, or as
// not invited when the district does not invite it) and the owner withdraws it; a co-teacher sees
// the list and may leave the class. Nobody removes the owner.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import { useNavigate } from 'react-router';
import { serverMessageOr } from '../../api/apiError';
import { useAuth } from '../../session/useAuth';
import {
  useAddClassTeacherMutation,
  useGetClassTeachersQuery,
  useRemoveClassTeacherMutation,
  type ClassItem,
  type ClassTeacher,
} from './classesApi';
import { useTranslation } from '../../i18n/react';
import type { TFunction } from '../../i18n/i18n';

const nameOf = (teacher: ClassTeacher, t: TFunction) =>
  [teacher.firstName, teacher.lastName].filter(Boolean).join(' ') || teacher.email || t('teachers.unknown');

export function ClassTeachersSection({ cls }: { cls: ClassItem }) {
  const owner = !cls.coTeaching;
  const { user } = useAuth();
  const navigate = useNavigate();
  const { data: teachers, error: loadError } = useGetClassTeachersQuery(cls.id);
  const [addTeacher, adding] = useAddClassTeacherMutation();
  const [removeTeacher, removing] = useRemoveClassTeacherMutation();
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const { t } = useTranslation('teacher');

  async function onAdd(e: FormEvent) {
    e.preventDefault();
    const typed = email.trim();
    if (!typed) {
      setMessage({ tone: 'danger', text: t('teachers.emailRequired') });
      return;
    }
    try {
      const added = await addTeacher({ id: cls.id, body: { email: typed } }).unwrap();
      setEmail('');
      setMessage({
        tone: 'success',
        text: added.invitation
          ? t('teachers.invited', { email: added.email ?? typed })
          : t('teachers.added', { name: nameOf(added, t) }),
      });
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, t('teachers.addFailed')) });
    }
  }

  async function onRemove(teacher: ClassTeacher) {
    const leaving = teacher.id === user?.id;
    try {
      await removeTeacher({ id: cls.id, teacherId: teacher.id }).unwrap();
      if (leaving) {
        void navigate('/classes');
        return;
      }
      setMessage({
        tone: 'success',
        text: teacher.invitation
          ? t('teachers.withdrawn', { name: nameOf(teacher, t) })
          : t('teachers.removed', { name: nameOf(teacher, t) }),
      });
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, t('teachers.removeFailed')) });
    }
  }

  return (
    <Card className="shadow-sm mb-4" as="section" aria-labelledby="class-teachers-heading">
      <Card.Body>
        <h2 id="class-teachers-heading" className="h5 mb-3">
          {t('teachers.title')}
        </h2>
        {loadError && <Alert variant="danger">{serverMessageOr(loadError, t('teachers.loadFailed'))}</Alert>}
        <ListGroup as="ul" variant="flush" className="mb-3" aria-label={t('teachers.listLabel')}>
          {(teachers ?? []).map((teacher) => (
            <ListGroup.Item as="li" key={teacher.id} className="d-flex flex-wrap align-items-center gap-2 px-0">
              <span className="fw-semibold text-break">{nameOf(teacher, t)}</span>
              {teacher.email && !teacher.invitation && (
                <span className="text-body-secondary small text-break">{teacher.email}</span>
              )}
              {teacher.owner ? (
                <Badge bg="primary">{t('teachers.owner')}</Badge>
              ) : teacher.invitation === 'pending' ? (
                <Badge bg="warning-subtle" text="warning-emphasis">
                  {t('teachers.invitedBadge')}
                </Badge>
              ) : teacher.invitation === 'refused' ? (
                <>
                  <Badge bg="danger-subtle" text="danger-emphasis">
                    {t('teachers.notInvited')}
                  </Badge>
                  <span className="text-body-secondary small">{t('teachers.notInvitedText')}</span>
                </>
              ) : (
                <Badge bg="info-subtle" text="info-emphasis">
                  {t('teachers.coTeacher')}
                </Badge>
              )}
              {teacher.invitation && owner && (
                <Button
                  variant="outline-danger"
                  size="sm"
                  className="ms-auto"
                  disabled={removing.isLoading}
                  aria-label={t('teachers.withdrawLabel', { name: nameOf(teacher, t) })}
                  onClick={() => void onRemove(teacher)}
                >
                  {t('teachers.withdraw')}
                </Button>
              )}
              {!teacher.owner && !teacher.invitation && (owner || teacher.id === user?.id) && (
                <Button
                  variant="outline-danger"
                  size="sm"
                  className="ms-auto"
                  disabled={removing.isLoading}
                  aria-label={
                    teacher.id === user?.id
                      ? t('teachers.leaveLabel')
                      : t('teachers.removeLabel', { name: nameOf(teacher, t) })
                  }
                  onClick={() => void onRemove(teacher)}
                >
                  {teacher.id === user?.id ? t('teachers.leave') : t('teachers.remove')}
                </Button>
              )}
            </ListGroup.Item>
          ))}
        </ListGroup>
        {message && (
          <Alert variant={message.tone} role={message.tone === 'danger' ? 'alert' : 'status'}>
            {message.text}
          </Alert>
        )}
        {owner ? (
          <Form onSubmit={(e) => void onAdd(e)} noValidate className="d-flex flex-wrap gap-2 align-items-end">
            <Form.Group controlId="co-teacher-email" className="flex-grow-1">
              <Form.Label>{t('teachers.addLabel')}</Form.Label>
              <Form.Control
                type="email"
                value={email}
                maxLength={254}
                placeholder={t('teachers.emailPlaceholder')}
                onChange={(e) => setEmail(e.target.value)}
              />
              <Form.Text>{t('teachers.addHelp')}</Form.Text>
            </Form.Group>
            <Button type="submit" disabled={adding.isLoading}>
              {adding.isLoading ? t('teachers.adding') : t('teachers.add')}
            </Button>
          </Form>
        ) : (
          <p className="text-body-secondary small mb-0">{t('teachers.coTeachNote')}</p>
        )}
      </Card.Body>
    </Card>
  );
}
