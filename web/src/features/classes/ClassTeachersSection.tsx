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

const nameOf = (t: ClassTeacher) => [t.firstName, t.lastName].filter(Boolean).join(' ') || t.email || 'Unknown';

export function ClassTeachersSection({ cls }: { cls: ClassItem }) {
  const owner = !cls.coTeaching;
  const { user } = useAuth();
  const navigate = useNavigate();
  const { data: teachers, error: loadError } = useGetClassTeachersQuery(cls.id);
  const [addTeacher, adding] = useAddClassTeacherMutation();
  const [removeTeacher, removing] = useRemoveClassTeacherMutation();
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);

  async function onAdd(e: FormEvent) {
    e.preventDefault();
    const typed = email.trim();
    if (!typed) {
      setMessage({ tone: 'danger', text: 'Enter the email of a teacher of your school or district' });
      return;
    }
    try {
      const added = await addTeacher({ id: cls.id, body: { email: typed } }).unwrap();
      setEmail('');
      setMessage({
        tone: 'success',
        text: added.invitation
          ? `${added.email ?? typed} has no account yet: an invitation is on its way, and they will teach this class with you once they accept it`
          : `${nameOf(added)} now teaches this class with you`,
      });
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, 'Could not add this teacher') });
    }
  }

  async function onRemove(t: ClassTeacher) {
    const leaving = t.id === user?.id;
    try {
      await removeTeacher({ id: cls.id, teacherId: t.id }).unwrap();
      if (leaving) {
        void navigate('/classes');
        return;
      }
      setMessage({
        tone: 'success',
        text: t.invitation
          ? `The invitation of ${nameOf(t)} is withdrawn`
          : `${nameOf(t)} no longer teaches this class`,
      });
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, 'Could not remove this teacher') });
    }
  }

  return (
    <Card className="shadow-sm mb-4" as="section" aria-labelledby="class-teachers-heading">
      <Card.Body>
        <h2 id="class-teachers-heading" className="h5 mb-3">
          Teachers
        </h2>
        {loadError && <Alert variant="danger">{serverMessageOr(loadError, 'Failed to load the teachers')}</Alert>}
        <ListGroup as="ul" variant="flush" className="mb-3" aria-label="Teachers of this class">
          {(teachers ?? []).map((t) => (
            <ListGroup.Item as="li" key={t.id} className="d-flex flex-wrap align-items-center gap-2 px-0">
              <span className="fw-semibold text-break">{nameOf(t)}</span>
              {t.email && !t.invitation && <span className="text-body-secondary small text-break">{t.email}</span>}
              {t.owner ? (
                <Badge bg="primary">Owner</Badge>
              ) : t.invitation === 'pending' ? (
                <Badge bg="warning-subtle" text="warning-emphasis">
                  Invited
                </Badge>
              ) : t.invitation === 'refused' ? (
                <>
                  <Badge bg="danger-subtle" text="danger-emphasis">
                    Not invited
                  </Badge>
                  <span className="text-body-secondary small">
                    Not an address your district invites: check it, or ask them to sign up first
                  </span>
                </>
              ) : (
                <Badge bg="info-subtle" text="info-emphasis">
                  Co-teacher
                </Badge>
              )}
              {t.invitation && owner && (
                <Button
                  variant="outline-danger"
                  size="sm"
                  className="ms-auto"
                  disabled={removing.isLoading}
                  aria-label={`Withdraw the invitation of ${nameOf(t)}`}
                  onClick={() => void onRemove(t)}
                >
                  Withdraw
                </Button>
              )}
              {!t.owner && !t.invitation && (owner || t.id === user?.id) && (
                <Button
                  variant="outline-danger"
                  size="sm"
                  className="ms-auto"
                  disabled={removing.isLoading}
                  aria-label={t.id === user?.id ? 'Leave this class' : `Remove ${nameOf(t)}`}
                  onClick={() => void onRemove(t)}
                >
                  {t.id === user?.id ? 'Leave class' : 'Remove'}
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
              <Form.Label>Add a co-teacher</Form.Label>
              <Form.Control
                type="email"
                value={email}
                maxLength={254}
                placeholder="teacher@school.org"
                onChange={(e) => setEmail(e.target.value)}
              />
              <Form.Text>
                A teacher of your school or district: they will see and teach this class with you, but cannot delete it.
                An address of your district without an account yet gets an invitation to join.
              </Form.Text>
            </Form.Group>
            <Button type="submit" disabled={adding.isLoading}>
              {adding.isLoading ? 'Adding...' : 'Add teacher'}
            </Button>
          </Form>
        ) : (
          <p className="text-body-secondary small mb-0">
            You co-teach this class. Its owner adds and removes teachers and can delete it.
          </p>
        )}
      </Card.Body>
    </Card>
  );
}
