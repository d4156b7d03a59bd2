// The district admin sets the picture or two words of a student who has no e-mail to sign in with
// (rostered without one, made by a teacher, or from an LMS): a first one with a username, or a new
// one (the username may change); the old picture or words stop working at once.
import { useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { serverMessageOr } from '../../api/apiError';
import { useToast } from '../../components/toast/useToast';
import { useTranslation } from '../../i18n/react';
import { emptySecret, SecretFields, secretOf } from '../studentLogins';
import { useSetStudentSignInMutation, type DistrictUser } from './districtApi';

/** An address no mail reaches: none, or a placeholder under `.invalid` (the roster's, an LMS's). */
export const hasNoMailbox = (u: Pick<DistrictUser, 'email'>) => !u.email || /\.invalid$/i.test(u.email);

export function StudentSignInModal({ student, onClose }: { student: DistrictUser; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [setSignIn, { isLoading }] = useSetStudentSignInMutation();
  const [username, setUsername] = useState(student.username ?? '');
  const [secret, setSecret] = useState(emptySecret);
  const [error, setError] = useState<string>();
  const name = `${student.firstName} ${student.lastName}`.trim();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const chosen = secretOf(secret);
    if (typeof chosen === 'string') return setError(chosen);
    const typed = username.trim();
    if (!typed && !student.username) return setError(t('users.signIn.usernameRequired'));
    try {
      await setSignIn({ id: student.id, body: { secret: chosen, ...(typed ? { username: typed } : {}) } }).unwrap();
      toast({ title: t('common:success'), description: t('users.signIn.saved', { name }) });
      onClose();
    } catch (err) {
      setError(serverMessageOr(err, t('users.signIn.failed')));
    }
  };

  return (
    <Modal show onHide={isLoading ? () => undefined : onClose} centered aria-labelledby="student-sign-in-title">
      <Form onSubmit={submit} noValidate aria-labelledby="student-sign-in-title">
        <Modal.Header closeButton={!isLoading}>
          <Modal.Title id="student-sign-in-title" as="h2" className="h5">
            {t('users.signIn.title', { name })}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">{t('users.signIn.text')}</p>
          {error ? (
            <Alert variant="danger" role="alert">
              {error}
            </Alert>
          ) : null}
          <Form.Group className="mb-3" controlId="student-sign-in-username">
            <Form.Label>{t('users.signIn.username')}</Form.Label>
            <Form.Control
              value={username}
              autoComplete="off"
              required={!student.username}
              onChange={(e) => setUsername(e.target.value)}
            />
          </Form.Group>
          <SecretFields idPrefix={`admin-${student.id}`} draft={secret} onChange={setSecret} />
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={isLoading}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" disabled={isLoading}>
            {isLoading ? t('users.signIn.saving') : t('users.signIn.save')}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
