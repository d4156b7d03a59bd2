// The class page's "Student logins" (docs/adr/015-students-without-email.md): the class's student
// accounts without email (young students), made here by the teacher with a username and a picture
// or two words; the teacher resets a password, prints the class's login cards (QR) and revokes them.
// A student who came without an e-mail (the roster's, an LMS's) gets a username and picture here too.
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
  useSetUpStudentLoginMutation,
  type LoginCards,
  type StudentLogin,
  type StudentLogins,
} from './studentLoginsApi';
import { useTranslation } from '../../i18n/react';
import { formatDate } from '../../i18n/format';

type Message = { tone: 'success' | 'danger'; text: string };

function NewStudentForm({ classId, onDone }: { classId: string; onDone: (m: Message) => void }) {
  const [create, { isLoading }] = useCreateStudentLoginMutation();
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState<SecretDraft>(emptySecret);
  const [error, setError] = useState<string>();
  const { t } = useTranslation('teacher');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const chosen = secretOf(secret);
    if (!firstName.trim()) return setError(t('common:validation.firstNameRequired'));
    if (username.trim().length < 3) return setError(t('logins.usernameMin'));
    if (typeof chosen === 'string') return setError(t(chosen));
    try {
      const made = await create({ id: classId, body: { firstName, lastName, username, secret: chosen } }).unwrap();
      setFirstName('');
      setLastName('');
      setUsername('');
      setSecret(emptySecret());
      setError(undefined);
      onDone({ tone: 'success', text: t('logins.added', { name: made.firstName, username: made.username }) });
    } catch (err) {
      setError(serverMessageOr(err, t('logins.addFailed')));
    }
  }

  return (
    <Form noValidate onSubmit={onSubmit} aria-label={t('logins.addLabel')} className="border rounded p-3 mb-3">
      <div className="row g-2">
        <Form.Group className="col-sm-4" controlId="student-login-first-name">
          <Form.Label>{t('logins.firstName')}</Form.Label>
          <Form.Control value={firstName} onChange={(e) => setFirstName(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="student-login-last-name">
          <Form.Label>{t('logins.lastName')}</Form.Label>
          <Form.Control value={lastName} onChange={(e) => setLastName(e.target.value)} />
        </Form.Group>
        <Form.Group className="col-sm-4" controlId="student-login-username">
          <Form.Label>{t('logins.username')}</Form.Label>
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
        {isLoading ? t('logins.adding') : t('logins.add')}
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
  const { t } = useTranslation('teacher');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const chosen = secretOf(secret);
    if (typeof chosen === 'string') return setError(t(chosen));
    try {
      await reset({ id: classId, studentId: student.id, body: { secret: chosen } }).unwrap();
      onDone({
        tone: 'success',
        text:
          chosen.kind === 'picture'
            ? t('logins.resetPicture', { name, picture: t(`common:picture.${chosen.picture}`) })
            : t('logins.resetWords', { name, words: chosen.words }),
      });
    } catch (err) {
      setError(serverMessageOr(err, t('logins.resetFailed')));
    }
  }

  return (
    <Form
      noValidate
      onSubmit={onSubmit}
      aria-label={t('logins.resetLabel', { name })}
      className="border rounded p-3 mb-3"
    >
      <SecretFields idPrefix={`reset-${student.id}`} draft={secret} onChange={setSecret} />
      {error && (
        <Alert variant="danger" role="alert" className="py-2">
          {error}
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={isLoading}>
          {t('logins.saveReset')}
        </Button>
        <Button variant="outline-secondary" onClick={() => onDone(undefined)}>
          {t('common:cancel')}
        </Button>
      </div>
    </Form>
  );
}

type WithoutSignIn = StudentLogins['withoutSignIn'][number];

/** A username and a picture or words for a student of the class who came without an e-mail. */
function SetUpForm({
  classId,
  student,
  onDone,
}: {
  classId: string;
  student: WithoutSignIn;
  onDone: (m: Message | undefined) => void;
}) {
  const [setUp, { isLoading }] = useSetUpStudentLoginMutation();
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState<SecretDraft>(emptySecret);
  const [error, setError] = useState<string>();
  const name = `${student.firstName} ${student.lastName}`.trim();
  const { t } = useTranslation('teacher');

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const chosen = secretOf(secret);
    if (username.trim().length < 3) return setError(t('logins.usernameMin'));
    if (typeof chosen === 'string') return setError(t(chosen));
    try {
      const made = await setUp({ id: classId, studentId: student.id, body: { username, secret: chosen } }).unwrap();
      onDone({ tone: 'success', text: t('logins.setUp.done', { name, username: made.username }) });
    } catch (err) {
      setError(serverMessageOr(err, t('logins.setUp.failed')));
    }
  }

  return (
    <Form
      noValidate
      onSubmit={onSubmit}
      aria-label={t('logins.setUp.label', { name })}
      className="border rounded p-3 mb-3"
    >
      <Form.Group className="mb-2" controlId={`set-up-${student.id}-username`}>
        <Form.Label>{t('logins.username')}</Form.Label>
        <Form.Control value={username} autoComplete="off" onChange={(e) => setUsername(e.target.value)} />
      </Form.Group>
      <SecretFields idPrefix={`set-up-${student.id}`} draft={secret} onChange={setSecret} />
      {error && (
        <Alert variant="danger" role="alert" className="py-2">
          {error}
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Button type="submit" disabled={isLoading}>
          {t('logins.setUp.save')}
        </Button>
        <Button variant="outline-secondary" onClick={() => onDone(undefined)}>
          {t('common:cancel')}
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
  const [settingUp, setSettingUp] = useState<string>();
  const [cards, setCards] = useState<LoginCards>();
  const [message, setMessage] = useState<Message>();
  const { t } = useTranslation('teacher');

  async function onPrint() {
    try {
      setCards(await print(classId).unwrap());
      setMessage(undefined);
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, t('logins.printFailed')) });
    }
  }

  async function onRevoke() {
    try {
      const { revoked } = await revoke(classId).unwrap();
      setCards(undefined);
      setMessage({
        tone: 'success',
        text: t('logins.revoked', { count: revoked }),
      });
    } catch (err) {
      setMessage({ tone: 'danger', text: serverMessageOr(err, t('logins.revokeFailed')) });
    }
  }

  const students = data?.students ?? [];
  const withoutSignIn = data?.withoutSignIn ?? [];
  const settingUpStudent = withoutSignIn.find((s) => s.id === settingUp);
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <h2 className="h5">{t('logins.title')}</h2>
        <p className="text-body-secondary small">
          {t('logins.intro')}
          {data ? (
            <>
              {' '}
              <strong>{data.classCode}</strong>
            </>
          ) : null}
          {t('logins.introEnd')}
        </p>
        {loadError && <Alert variant="danger">{serverMessageOr(loadError, t('logins.loadFailed'))}</Alert>}
        {message && (
          <Alert variant={message.tone} role={message.tone === 'danger' ? 'alert' : 'status'}>
            {message.text}
          </Alert>
        )}
        {students.length > 0 ? (
          <Table size="sm" responsive aria-label={t('logins.title')}>
            <thead>
              <tr>
                <th scope="col">{t('logins.student')}</th>
                <th scope="col">{t('logins.username')}</th>
                <th scope="col">{t('logins.secret.signsInWith')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('logins.actions')}</span>
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
                  <td>{s.signInWith === 'picture' ? t('logins.secret.picture') : t('logins.secret.words')}</td>
                  <td className="text-end">
                    <Button
                      size="sm"
                      variant="outline-secondary"
                      aria-label={t('logins.resetButtonLabel', { name: `${s.firstName} ${s.lastName}`.trim() })}
                      onClick={() => setResetting(s.id)}
                    >
                      {t('logins.reset')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : (
          data && <p>{t('logins.none')}</p>
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
        {withoutSignIn.length > 0 && (
          <>
            <h3 className="h6">{t('logins.setUp.title')}</h3>
            <p className="small text-body-secondary">{t('logins.setUp.intro')}</p>
            <ul className="list-unstyled" aria-label={t('logins.setUp.title')}>
              {withoutSignIn.map((s) => {
                const name = `${s.firstName} ${s.lastName}`.trim();
                return (
                  <li key={s.id} className="d-flex align-items-center gap-2 mb-2">
                    <span>{name}</span>
                    <Button
                      size="sm"
                      variant="outline-primary"
                      aria-label={t('logins.setUp.buttonLabel', { name })}
                      onClick={() => setSettingUp(s.id)}
                    >
                      {t('logins.setUp.button')}
                    </Button>
                  </li>
                );
              })}
            </ul>
          </>
        )}
        {settingUpStudent && (
          <SetUpForm
            key={settingUpStudent.id}
            classId={classId}
            student={settingUpStudent}
            onDone={(m) => {
              setSettingUp(undefined);
              setMessage(m);
            }}
          />
        )}
        {adding ? (
          <NewStudentForm classId={classId} onDone={setMessage} />
        ) : (
          <Button variant="outline-primary" className="me-2 mb-2" onClick={() => setAdding(true)}>
            {t('logins.addLabel')}
          </Button>
        )}
        <Button
          variant="outline-primary"
          className="me-2 mb-2"
          disabled={students.length === 0 || printing.isLoading}
          onClick={onPrint}
        >
          {t('logins.print')}
        </Button>
        <Button
          variant="outline-danger"
          className="mb-2"
          disabled={!data || data.cards.inForce === 0 || revoking.isLoading}
          onClick={onRevoke}
        >
          {t('logins.revoke')}
        </Button>
        {data && data.cards.inForce > 0 && data.cards.expiresAt && (
          <p className="small text-body-secondary mb-0">
            {t('logins.inForce', { count: data.cards.inForce, date: formatDate(data.cards.expiresAt) })}
          </p>
        )}
        {cards && <LoginCardsSheet cards={cards} className={className} onClose={() => setCards(undefined)} />}
      </Card.Body>
    </Card>
  );
}
