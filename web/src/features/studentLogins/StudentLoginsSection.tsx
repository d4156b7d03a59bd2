// The class page's "Student logins" (docs/adr/015-students-without-email.md): the class's student
// accounts without email (young students), made here by the teacher with a username and a picture
// or two words; the teacher resets a password, prints the class's login cards (QR) and revokes them.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { LoginCardsSheet } from './LoginCardsSheet';
import { SecretFields, emptySecret, secretOf, type SecretDraft } from './SecretFields';
import {
  useCreateStudentLoginMutation,
  useGetStudentLoginsQuery,
  usePrintLoginCardsMutation,
  useResetStudentSecretMutation,
  useRevokeLoginCardsMutation,
  type LoginCards,
  type StudentLogin,
} from './studentLoginsApi';

type Message = { tone: 'success' | 'danger'; text: string };

function NewStudentForm({ classId, onDone }: { classId: string; onDone: (m: Message) => void }) {
  const [create, { isLoading }] = useCreateStudentLoginMutation();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState<SecretDraft>(emptySecret);
  const [error, setError] = useState<string>();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const chosen = secretOf(secret);
    if (!firstName.trim()) return setError('First name is required');
    if (username.trim().length < 3) return setError('Username must be at least 3 characters');
    if (typeof chosen === 'string') return setError(chosen);
    try {
      const made = await create({ id: classId, body: { firstName, lastName, username, secret: chosen } }).unwrap();
      setFirstName('');
      setLastName('');
      setUsername('');
      setSecret(emptySecret());
      setError(undefined);
      onDone({ tone: 'success', text: `${made.firstName} can now sign in with the class code (${made.username})` });
    } catch (err) {
      setError(serverMessageOr(err, 'Could not add this student'));
    }
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label="Add a student without email" className="border rounded p-3 mb-3">
      <div className="row g-2">
        <Form.Group className="col-sm-4" controlId="student-login-first-name">
          <Form.Label>First name</Form.Label>
          <Form.Control value={firstName} onChange={(e) => setFirstName(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="student-login-last-name">
          <Form.Label>Last name</Form.Label>
          <Form.Control value={lastName} onChange={(e) => setLastName(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="student-login-username">
          <Form.Label>Username</Form.Label>
          <Form.Control value={username} autoComplete="off" onChange={(e) => setUsername(e.target.value)} />
        </Form.Group>
      </div>
      <div className="mt-2">
        <SecretFields idPrefix="new-student" draft={secret} onChange={setSecret} />
      </div>
      {error && (
        <Alert variant="danger" role="alert" className="py-2">
          {error}
        </Alert>
      )}
      <Button type="submit" disabled={isLoading}>
        {isLoading ? 'Adding…' : 'Add student'}
      </Button>
    </Form>
  );
}

function ResetForm({
  classId,
  student,
  onDone,
}: {
  classId: string;
  student: StudentLogin;
  onDone: (m: Message | undefined) => void;
}) {
  const [reset, { isLoading }] = useResetStudentSecretMutation();
  const [secret, setSecret] = useState<SecretDraft>(emptySecret);
  const [error, setError] = useState<string>();
  const name = `${student.firstName} ${student.lastName}`.trim();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const chosen = secretOf(secret);
    if (typeof chosen === 'string') return setError(chosen);
    try {
      await reset({ id: classId, studentId: student.id, body: { secret: chosen } }).unwrap();
      onDone({
        tone: 'success',
        text:
          chosen.kind === 'picture'
            ? `${name} now signs in with the picture ${chosen.picture}`
            : `${name} now signs in with the words "${chosen.words}"`,
      });
    } catch (err) {
      setError(serverMessageOr(err, 'Could not reset the password'));
    }
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={`New password for ${name}`} className="border rounded p-3 mb-3">
      <SecretFields idPrefix={`reset-${student.id}`} draft={secret} onChange={setSecret} />
      {error && (
        <Alert variant="danger" role="alert" className="py-2">
          {error}
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={isLoading}>
          Save new password
        </Button>
        <Button variant="outline-secondary" onClick={() => onDone(undefined)}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}

export function StudentLoginsSection({ classId, className }: { classId: string; className: string }) {
  const { data, error: loadError } = useGetStudentLoginsQuery(classId);
  const [print, printing] = usePrintLoginCardsMutation();
  const [revoke, revoking] = useRevokeLoginCardsMutation();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<string>();
  const [cards, setCards] = useState<LoginCards>();
  const [message, setMessage] = useState<Message>();

  async function onPrint() {
    try {
      setCards(await print(classId).unwrap());
      setMessage(undefined);
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, 'Could not make the login cards') });
    }
  }

  async function onRevoke() {
    try {
      const { revoked } = await revoke(classId).unwrap();
      setCards(undefined);
      setMessage({
        tone: 'success',
        text: revoked === 1 ? '1 login card no longer works' : `${revoked} login cards no longer work`,
      });
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, 'Could not revoke the login cards') });
    }
  }

  const students = data?.students ?? [];
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <h2 className="h5">Student logins</h2>
        <p className="text-body-secondary small">
          For students without an email address: they sign in with the class code
          {data ? (
            <>
              {' '}
              <strong>{data.classCode}</strong>
            </>
          ) : null}
          , their name and a picture or two words, or by scanning their login card.
        </p>
        {loadError && <Alert variant="danger">{serverMessageOr(loadError, 'Could not load the student logins')}</Alert>}
        {message && (
          <Alert variant={message.tone} role={message.tone === 'danger' ? 'alert' : 'status'}>
            {message.text}
          </Alert>
        )}
        {students.length > 0 ? (
          <Table size="sm" responsive aria-label="Student logins">
            <thead>
              <tr>
                <th scope="col">Student</th>
                <th scope="col">Username</th>
                <th scope="col">Signs in with</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {students.map((s) => (
                <tr key={s.id}>
                  <th scope="row" className="fw-normal">
                    {s.firstName} {s.lastName}
                  </th>
                  <td>{s.username}</td>
                  <td>{s.signInWith === 'picture' ? 'A picture' : 'Two words'}</td>
                  <td className="text-end">
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      aria-label={`Reset the password of ${s.firstName} ${s.lastName}`.trim()}
                      onClick={() => setResetting(s.id)}
                    >
                      Reset
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : (
          data && <p>No student logins yet.</p>
        )}
        {resetting && students.find((s) => s.id === resetting) && (
          <ResetForm
            classId={classId}
            student={students.find((s) => s.id === resetting)!}
            onDone={(m) => {
              setResetting(undefined);
              setMessage(m);
            }}
          />
        )}
        {adding ? (
          <NewStudentForm classId={classId} onDone={setMessage} />
        ) : (
          <Button variant="outline-primary" className="me-2 mb-2" onClick={() => setAdding(true)}>
            Add a student without email
          </Button>
        )}
        <Button
          variant="outline-primary"
          className="me-2 mb-2"
          disabled={students.length === 0 || printing.isLoading}
          onClick={onPrint}
        >
          Print login cards
        </Button>
        <Button
          variant="outline-danger"
          className="mb-2"
          disabled={!data || data.cards.inForce === 0 || revoking.isLoading}
          onClick={onRevoke}
        >
          Revoke login cards
        </Button>
        {data && data.cards.inForce > 0 && data.cards.expiresAt && (
          <p className="small text-body-secondary mb-0">
            {data.cards.inForce} printed card{data.cards.inForce === 1 ? '' : 's'} sign in until{' '}
            {new Date(data.cards.expiresAt).toLocaleDateString()}.
          </p>
        )}
        {cards && <LoginCardsSheet cards={cards} className={className} onClose={() => setCards(undefined)} />}
      </Card.Body>
    </Card>
  );
}
