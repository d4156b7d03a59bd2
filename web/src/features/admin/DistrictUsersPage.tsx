// /admin/users: the district's people (search, role filter, pages), inviting someone, removing an
// account (with a confirm) and promoting a teacher to admin or making an admin a teacher again.
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

export const PAGE_SIZE = 50;

const ROLE_BADGES: Record<DistrictRole, { label: string; bg: string }> = {
  admin: { label: 'Admin', bg: 'danger' },
  teacher: { label: 'Teacher', bg: 'primary' },
  student: { label: 'Student', bg: 'success' },
};

const SOURCE_TEXT: Record<DistrictUser['source'], string> = {
  password: 'Password',
  sso: 'District sign-in',
  invitation: 'Invitation',
  roster: 'Roster',
  unknown: '—',
};

const fullName = (u: DistrictUser) => `${u.firstName} ${u.lastName}`.trim() || u.email;

function InviteModal({ show, onClose }: { show: boolean; onClose: () => void }) {
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
      toast({ title: 'Invitation sent', description: `An invitation was mailed to ${sent.email}.` });
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
            Invite someone
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-body-secondary">
            They get an email with a link to create their account in your district. The address may be at any domain.
          </p>
          {error ? (
            <Alert variant="danger" role="alert">
              {serverMessageOr(error, 'The invitation could not be sent')}
            </Alert>
          ) : null}
          <Form.Group className="mb-3" controlId="invite-email">
            <Form.Label>Email</Form.Label>
            <Form.Control type="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
          </Form.Group>
          <Form.Group controlId="invite-role">
            <Form.Label>Role</Form.Label>
            <Form.Select value={role} onChange={(e) => setRole(e.target.value as DistrictRole)}>
              <option value="teacher">Teacher</option>
              <option value="admin">Admin</option>
              <option value="student">Student</option>
            </Form.Select>
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={close} disabled={isLoading}>
            Cancel
          </Button>
          <Button type="submit" disabled={isLoading || !email.trim()}>
            {isLoading ? 'Sending…' : 'Send invitation'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

function PendingInvitations() {
  const toast = useToast();
  const { data } = useGetInvitationsQuery();
  const [revoke, { isLoading }] = useRevokeInvitationMutation();
  const invitations = data?.invitations ?? [];
  if (invitations.length === 0) return null;
  return (
    <Card className="shadow-sm mb-4">
      <Card.Body>
        <Card.Title as="h2" className="h5">
          Pending invitations
        </Card.Title>
        <ListGroup as="ul" variant="flush" aria-label="Pending invitations">
          {invitations.map((i) => (
            <ListGroup.Item
              as="li"
              key={i.id}
              className="d-flex flex-wrap justify-content-between align-items-center gap-2 px-0"
            >
              <span>
                {i.email} <Badge bg="secondary">{i.role || 'teacher'}</Badge>
              </span>
              <Button
                size="sm"
                variant="outline-danger"
                disabled={isLoading}
                aria-label={`Revoke the invitation of ${i.email}`}
                onClick={async () => {
                  try {
                    await revoke(i.id).unwrap();
                    toast({ title: 'Success', description: `The invitation of ${i.email} was revoked.` });
                  } catch (err) {
                    toast({
                      title: 'Error',
                      description: serverMessageOr(err, 'Failed to revoke'),
                      variant: 'destructive',
                    });
                  }
                }}
              >
                Revoke
              </Button>
            </ListGroup.Item>
          ))}
        </ListGroup>
      </Card.Body>
    </Card>
  );
}

export function DistrictUsersPage() {
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

  const failed = (err: unknown, fallback: string) =>
    toast({ title: 'Error', description: serverMessageOr(err, fallback), variant: 'destructive' });

  const setRoleOf = async (u: DistrictUser, next: 'teacher' | 'admin') => {
    try {
      await changeRole({ id: u.id, body: { role: next } }).unwrap();
      toast({
        title: 'Success',
        description: next === 'admin' ? `${fullName(u)} is now an admin.` : `${fullName(u)} is now a teacher.`,
      });
    } catch (err) {
      failed(err, 'Failed to change the role');
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await removeUser(removing.id).unwrap();
      toast({ title: 'Success', description: `${fullName(removing)} was removed.` });
      setRemoving(undefined);
    } catch (err) {
      setRemoving(undefined);
      failed(err, 'Failed to remove the user');
    }
  };

  const filtersChanged = () => setCursors([]);

  return (
    <>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2 mb-3">
        <div>
          <h1 className="h2 mb-1">Users</h1>
          <p className="text-body-secondary mb-0" data-testid="district-counts">
            {district
              ? `${district.counts.admin} admins · ${district.counts.teacher} teachers · ${district.counts.student} students` +
                (district.counts.disabled ? ` · ${district.counts.disabled} removed` : '')
              : 'The people of your district'}
          </p>
        </div>
        <Button onClick={() => setInviting(true)}>Invite</Button>
      </div>
      <PendingInvitations />
      <Form className="d-flex flex-wrap gap-2 mb-3" role="search" onSubmit={(e) => e.preventDefault()}>
        <Form.Control
          type="search"
          placeholder="Search by name or email"
          aria-label="Search users"
          value={search}
          className="flex-grow-1 w-auto"
          onChange={(e) => {
            setSearch(e.target.value);
            filtersChanged();
          }}
        />
        <Form.Select
          aria-label="Filter by role"
          value={role}
          className="w-auto"
          onChange={(e) => {
            setRole(e.target.value as DistrictRole | '');
            filtersChanged();
          }}
        >
          <option value="">All roles</option>
          <option value="admin">Admins</option>
          <option value="teacher">Teachers</option>
          <option value="student">Students</option>
        </Form.Select>
      </Form>
      {error ? (
        <Alert variant="danger">{serverMessageOr(error, 'Failed to load users')}</Alert>
      ) : !data ? (
        <PageSpinner />
      ) : data.users.length === 0 ? (
        <p className="text-body-secondary">No users match.</p>
      ) : (
        <Table responsive hover aria-label="District users" aria-busy={isFetching}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Joined by</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.users.map((u) => {
              const self = u.id === me?.id;
              const badge = ROLE_BADGES[u.role];
              const busy = roleState.isLoading || removeState.isLoading;
              return (
                <tr key={u.id} className={u.disabled ? 'text-body-secondary' : undefined}>
                  <td>
                    {fullName(u)}
                    {self ? <span className="small text-body-secondary"> (you)</span> : null}
                  </td>
                  <td>{u.email}</td>
                  <td>
                    <Badge bg={badge.bg}>{badge.label}</Badge>
                  </td>
                  <td>
                    {u.disabled ? (
                      <Badge bg="secondary">Removed</Badge>
                    ) : u.emailVerified ? (
                      'Active'
                    ) : (
                      <span title="The email address was not confirmed yet">Active · email not verified</span>
                    )}
                  </td>
                  <td>{SOURCE_TEXT[u.source]}</td>
                  <td className="text-end text-nowrap">
                    {!self && !u.disabled && u.role === 'teacher' ? (
                      <Button
                        size="sm"
                        variant="outline-primary"
                        className="me-2"
                        disabled={busy}
                        onClick={() => setRoleOf(u, 'admin')}
                        aria-label={`Make ${fullName(u)} an admin`}
                      >
                        Make admin
                      </Button>
                    ) : null}
                    {!self && !u.disabled && u.role === 'admin' ? (
                      <Button
                        size="sm"
                        variant="outline-secondary"
                        className="me-2"
                        disabled={busy}
                        onClick={() => setRoleOf(u, 'teacher')}
                        aria-label={`Make ${fullName(u)} a teacher`}
                      >
                        Make teacher
                      </Button>
                    ) : null}
                    {!self && !u.disabled ? (
                      <Button
                        size="sm"
                        variant="outline-danger"
                        disabled={busy}
                        onClick={() => setRemoving(u)}
                        aria-label={`Remove ${fullName(u)}`}
                      >
                        Remove
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
            Previous page
          </Button>
        ) : null}
        {data?.nextCursor ? (
          <Button variant="outline-secondary" onClick={() => setCursors([...cursors, data.nextCursor!])}>
            Next page
          </Button>
        ) : null}
      </div>
      <InviteModal show={inviting} onClose={() => setInviting(false)} />
      <ConfirmModal
        show={removing !== undefined}
        title="Remove user"
        confirmLabel="Remove"
        pendingLabel="Removing…"
        pending={removeState.isLoading}
        onConfirm={confirmRemove}
        onCancel={() => setRemoving(undefined)}
      >
        <p>
          Remove <strong>{removing ? fullName(removing) : ''}</strong> ({removing?.email}) from your district?
        </p>
        <p className="mb-0 small text-body-secondary">
          They can no longer sign in and are signed out everywhere at once. Their classes, assessments and results stay
          with the district.
        </p>
      </ConfirmModal>
    </>
  );
}
