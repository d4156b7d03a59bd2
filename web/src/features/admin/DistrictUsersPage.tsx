// /admin/users: the district's people (search, role filter, pages), inviting someone, removing an
// account (with a confirm), promoting a teacher to admin or making an admin a teacher again, and
// setting the picture or words of a student without an e-mail (StudentSignInModal).
import { useDeferredValue, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { serverMessageOr } from '../../api/apiError';
import { PageSpinner } from '../../components/PageSpinner';
import { useToast } from '../../components/toast/useToast';
import { useAuth } from '../../session/useAuth';
import { ConfirmModal } from '../classes';
import {
  useChangeUserRoleMutation,
  useGetDistrictQuery,
  useGetDistrictUsersQuery,
  useGetInvitationsQuery,
  useInviteUserMutation,
  useRemoveUserMutation,
  useRevokeInvitationMutation,
  type DistrictRole,
  type DistrictUser,
} from './districtApi';
import { useTranslation } from '../../i18n/react';
import { withStrong } from '../../i18n/rich';
import { hasNoMailbox, StudentSignInModal } from './StudentSignInModal';

export const PAGE_SIZE = 50;

/** Each role's badge colour; its name is common:role.<role>. */
const ROLE_BADGES: Record<DistrictRole, string> = {
  admin: 'danger',
  teacher: 'primary',
  student: 'success',
};

const fullName = (u: DistrictUser) => `${u.firstName} ${u.lastName}`.trim() || u.email;

function InviteModal({ show, onClose }: { show: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const [invite, { isLoading, error, reset }] = useInviteUserMutation();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<DistrictRole>('teacher');
  const close = () => {
    setEmail('');
    setRole('teacher');
    reset();
    onClose();
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const sent = await invite({ email: email.trim(), role }).unwrap();
      toast({ title: t('users.invite.sent'), description: t('users.invite.sentText', { email: sent.email }) });
      close();
    } catch {
      // shown below
    }
  };
  return (
    <Modal show={show} onHide={isLoading ? () => undefined : close} centered aria-labelledby="invite-title">
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton={!isLoading}>
          <Modal.Title id="invite-title" as="h2" className="h5">
            {t('users.invite.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">{t('users.invite.text')}</p>
          {error ? (
            <Alert variant="danger" role="alert">
              {serverMessageOr(error, t('users.invite.failed'))}
            </Alert>
          ) : null}
          <Form.Group className="mb-3" controlId="invite-email">
            <Form.Label>{t('common:email')}</Form.Label>
            <Form.Control type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </Form.Group>
          <Form.Group controlId="invite-role">
            <Form.Label>{t('users.role')}</Form.Label>
            <Form.Select value={role} onChange={(e) => setRole(e.target.value as DistrictRole)}>
              <option value="teacher">{t('common:role.teacher')}</option>
              <option value="admin">{t('common:role.admin')}</option>
              <option value="student">{t('common:role.student')}</option>
            </Form.Select>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close} disabled={isLoading}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" disabled={isLoading || !email.trim()}>
            {isLoading ? t('users.invite.sending') : t('users.invite.send')}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function PendingInvitations() {
  const { t } = useTranslation('admin');
  const toast = useToast();
  const { data } = useGetInvitationsQuery();
  const [revoke, { isLoading }] = useRevokeInvitationMutation();
  const invitations = data?.invitations ?? [];
  if (invitations.length === 0) return null;
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {t('users.pending.title')}
        </Card.Title>
        <ListGroup as="ul" variant="flush" aria-label={t('users.pending.title')}>
          {invitations.map((i) => (
            <ListGroup.Item
              as="li"
              key={i.id}
              className="d-flex flex-wrap justify-content-between align-items-center gap-2 px-0"
            >
              <span>
                {i.email}{' '}
                <Badge bg="secondary">{t(`users.pending.role.${i.role || 'teacher'}`, { defaultValue: i.role })}</Badge>
              </span>
              <Button
                size="sm"
                variant="outline-danger"
                disabled={isLoading}
                aria-label={t('users.pending.revokeLabel', { email: i.email })}
                onClick={async () => {
                  try {
                    await revoke(i.id).unwrap();
                    toast({ title: t('common:success'), description: t('users.pending.revoked', { email: i.email }) });
                  } catch (err) {
                    toast({
                      title: t('common:toast.error'),
                      description: serverMessageOr(err, t('users.pending.revokeFailed')),
                      variant: 'destructive',
                    });
                  }
                }}
              >
                {t('users.pending.revoke')}
              </Button>
            </ListGroup.Item>
          ))}
        </ListGroup>
      </Card.Body>
    </Card>
  );
}

export function DistrictUsersPage() {
  const { t } = useTranslation('admin');
  const { user: me } = useAuth();
  const toast = useToast();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<DistrictRole | ''>('');
  /** Cursors of the pages before the current one (the first page has none). */
  const [cursors, setCursors] = useState<string[]>([]);
  const deferredSearch = useDeferredValue(search);
  const cursor = cursors[cursors.length - 1];
  const { data: district } = useGetDistrictQuery();
  const { data, isFetching, error } = useGetDistrictUsersQuery({
    limit: PAGE_SIZE,
    ...(deferredSearch.trim() ? { search: deferredSearch } : {}),
    ...(role ? { role } : {}),
    ...(cursor ? { cursor } : {}),
  });
  const [changeRole, roleState] = useChangeUserRoleMutation();
  const [removeUser, removeState] = useRemoveUserMutation();
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<DistrictUser | undefined>();
  const [signingIn, setSigningIn] = useState<DistrictUser | undefined>();

  const failed = (err: unknown, fallback: string) =>
    toast({ title: t('common:toast.error'), description: serverMessageOr(err, fallback), variant: 'destructive' });

  const setRoleOf = async (u: DistrictUser, next: 'teacher' | 'admin') => {
    try {
      await changeRole({ id: u.id, body: { role: next } }).unwrap();
      toast({
        title: t('common:success'),
        description: t(next === 'admin' ? 'users.nowAdmin' : 'users.nowTeacher', { name: fullName(u) }),
      });
    } catch (err) {
      failed(err, t('users.roleFailed'));
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await removeUser(removing.id).unwrap();
      toast({ title: t('common:success'), description: t('users.removed', { name: fullName(removing) }) });
      setRemoving(undefined);
    } catch (err) {
      setRemoving(undefined);
      failed(err, t('users.removeFailed'));
    }
  };

  const filtersChanged = () => setCursors([]);

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
        <div>
          <h1 className="h2 mb-1">{t('users.title')}</h1>
          <p className="text-body-secondary mb-0" data-testid="district-counts">
            {district
              ? [
                  t('users.counts.admins', { count: district.counts.admin }),
                  t('users.counts.teachers', { count: district.counts.teacher }),
                  t('users.counts.students', { count: district.counts.student }),
                  ...(district.counts.disabled ? [t('users.counts.removed', { count: district.counts.disabled })] : []),
                ].join(' · ')
              : t('users.intro')}
          </p>
        </div>
        <Button onClick={() => setInviting(true)}>{t('users.invite.button')}</Button>
      </div>
      <PendingInvitations />
      <Form className="d-flex flex-wrap gap-2 mb-3" role="search" onSubmit={(e) => e.preventDefault()}>
        <Form.Control
          type="search"
          placeholder={t('users.searchPlaceholder')}
          aria-label={t('users.search')}
          value={search}
          className="flex-grow-1 w-auto"
          onChange={(e) => {
            setSearch(e.target.value);
            filtersChanged();
          }}
        />
        <Form.Select
          aria-label={t('users.filterRole')}
          value={role}
          className="w-auto"
          onChange={(e) => {
            setRole(e.target.value as DistrictRole | '');
            filtersChanged();
          }}
        >
          <option value="">{t('users.roles.all')}</option>
          <option value="admin">{t('users.roles.admin')}</option>
          <option value="teacher">{t('users.roles.teacher')}</option>
          <option value="student">{t('users.roles.student')}</option>
        </Form.Select>
      </Form>
      {error ? (
        <Alert variant="danger">{serverMessageOr(error, t('users.loadFailed'))}</Alert>
      ) : !data ? (
        <PageSpinner />
      ) : data.users.length === 0 ? (
        <p className="text-body-secondary">{t('users.noMatch')}</p>
      ) : (
        <Table responsive hover aria-label={t('users.table')} aria-busy={isFetching}>
          <thead>
            <tr>
              <th scope="col">{t('users.col.name')}</th>
              <th scope="col">{t('common:email')}</th>
              <th scope="col">{t('users.role')}</th>
              <th scope="col">{t('users.col.status')}</th>
              <th scope="col">{t('users.col.source')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('users.col.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.users.map((u) => {
              const self = u.id === me?.id;
              const badge = { bg: ROLE_BADGES[u.role], label: t(`common:role.${u.role}`) };
              const busy = roleState.isLoading || removeState.isLoading;
              return (
                <tr key={u.id} className={u.disabled ? 'text-body-secondary' : undefined}>
                  <td>
                    {fullName(u)}
                    {self ? <span className="small text-body-secondary"> {t('users.you')}</span> : null}
                  </td>
                  <td>
                    {u.role === 'student' && hasNoMailbox(u) ? (
                      <span className="small">
                        {u.username && u.signInWith
                          ? t(`users.signIn.as.${u.signInWith}`, { username: u.username })
                          : t('users.signIn.none')}
                      </span>
                    ) : (
                      u.email
                    )}
                  </td>
                  <td>
                    <Badge bg={badge.bg}>{badge.label}</Badge>
                  </td>
                  <td>
                    {u.disabled ? (
                      <Badge bg="secondary">{t('users.status.removed')}</Badge>
                    ) : u.emailVerified ? (
                      t('users.status.active')
                    ) : (
                      <span title={t('users.status.unverifiedTitle')}>{t('users.status.unverified')}</span>
                    )}
                  </td>
                  <td>{u.source === 'unknown' ? '—' : t(`users.source.${u.source}`)}</td>
                  <td className="text-end text-nowrap">
                    {!self && !u.disabled && u.role === 'teacher' ? (
                      <Button
                        size="sm"
                        variant="outline-primary"
                        className="me-2"
                        disabled={busy}
                        onClick={() => setRoleOf(u, 'admin')}
                        aria-label={t('users.makeAdminLabel', { name: fullName(u) })}
                      >
                        {t('users.makeAdmin')}
                      </Button>
                    ) : null}
                    {!self && !u.disabled && u.role === 'admin' ? (
                      <Button
                        size="sm"
                        variant="outline-secondary"
                        className="me-2"
                        disabled={busy}
                        onClick={() => setRoleOf(u, 'teacher')}
                        aria-label={t('users.makeTeacherLabel', { name: fullName(u) })}
                      >
                        {t('users.makeTeacher')}
                      </Button>
                    ) : null}
                    {!u.disabled && u.role === 'student' && hasNoMailbox(u) ? (
                      <Button
                        size="sm"
                        variant="outline-primary"
                        className="me-2"
                        disabled={busy}
                        onClick={() => setSigningIn(u)}
                        aria-label={t('users.signIn.buttonLabel', { name: fullName(u) })}
                      >
                        {t(u.signInWith ? 'users.signIn.reset' : 'users.signIn.setUp')}
                      </Button>
                    ) : null}
                    {!self && !u.disabled ? (
                      <Button
                        size="sm"
                        variant="outline-danger"
                        disabled={busy}
                        onClick={() => setRemoving(u)}
                        aria-label={t('users.removeLabel', { name: fullName(u) })}
                      >
                        {t('users.remove')}
                      </Button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </Table>
      )}
      <div className="d-flex gap-2">
        {cursors.length > 0 ? (
          <Button variant="outline-secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
            {t('users.previous')}
          </Button>
        ) : null}
        {data?.nextCursor ? (
          <Button variant="outline-secondary" onClick={() => setCursors([...cursors, data.nextCursor!])}>
            {t('users.next')}
          </Button>
        ) : null}
      </div>
      <InviteModal show={inviting} onClose={() => setInviting(false)} />
      {signingIn ? <StudentSignInModal student={signingIn} onClose={() => setSigningIn(undefined)} /> : null}
      <ConfirmModal
        show={removing !== undefined}
        title={t('users.removeTitle')}
        confirmLabel={t('users.remove')}
        pendingLabel={t('users.removing')}
        pending={removeState.isLoading}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(undefined)}
      >
        <p>
          {withStrong(t('users.removeAsk', { name: removing ? fullName(removing) : '', email: removing?.email ?? '' }))}
        </p>
        <p className="mb-0 small text-body-secondary">{t('users.removeText')}</p>
      </ConfirmModal>
    </>
  );
}
