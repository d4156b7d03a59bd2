// /join-class. Signed out, the code is checked first (a wrong one is
// said at once, not after signing in), then kept while the visitor signs in or up; the join then
// completes right after (features/joinClass/usePendingJoin).
import { Link, useNavigate } from 'react-router';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { useToast } from '../../components/toast/useToast';
import { isApiError, serverMessageOr } from '../../api/apiError';
import { useJoinClassMutation, useLazyLookUpJoinCodeQuery } from '../classes';
import { JoinClassForm } from './JoinClassForm';
import { joinErrorMessage } from './joinErrors';
import { JOIN_NEXT, savePendingJoinCode } from './pendingJoin';

function Tips() {
  return (
    <div className="bg-body-tertiary rounded p-3 mt-4 small">
      <h2 className="h6">Tips</h2>
      <ul className="mb-0 ps-3">
        <li>Class codes are usually 6-8 characters long</li>
        <li>Each class has a unique code</li>
        <li>You can only join each class once</li>
      </ul>
    </div>
  );
}

function JoinCard({ pending, onJoin, note }: { pending: boolean; onJoin: (code: string) => unknown; note?: string }) {
  return (
    <Card className="shadow-sm mx-auto" style={{ maxWidth: 480 }}>
      <Card.Body className="p-4">
        <h1 className="h3 text-center mb-1">Join a Class</h1>
        <p className="text-center text-body-secondary mb-4">Enter the class code your teacher gave you</p>
        {note && <p className="small text-body-secondary">{note}</p>}
        <JoinClassForm pending={pending} onJoin={async (code) => void (await onJoin(code))} />
        <Tips />
      </Card.Body>
    </Card>
  );
}

/** Signed in: join now, then refresh the class lists and go to /. */
export function JoinClassPage() {
  const [join, { isLoading }] = useJoinClassMutation();
  const toast = useToast();
  const navigate = useNavigate();

  const onJoin = async (joinCode: string) => {
    try {
      const result = await join({ joinCode }).unwrap();
      toast({ title: 'Success', description: `You've joined ${result.className}!` });
      navigate('/');
    } catch (error) {
      toast({ title: 'Error', description: joinErrorMessage(error), variant: 'destructive' });
    }
  };

  return <JoinCard pending={isLoading} onJoin={onJoin} />;
}

/**
 * Signed out: check the code (GET /api/classes/join-code, rate limited per address), then keep it and
 * send the visitor to sign in (or sign up). A code that names no class is said here, at once.
 */
export function SignedOutJoinClassPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const [lookUp, { isFetching }] = useLazyLookUpJoinCodeQuery();
  const onJoin = async (joinCode: string) => {
    try {
      const found = await lookUp(joinCode).unwrap();
      toast({ title: 'Class found', description: `Sign in or create a student account to join ${found.className}.` });
    } catch (error) {
      const description =
        isApiError(error) && error.status === 429
          ? serverMessageOr(error, 'Too many join code checks. Please wait a minute and try again.')
          : joinErrorMessage(error);
      toast({ title: 'Error', description, variant: 'destructive' });
      return;
    }
    savePendingJoinCode(joinCode);
    navigate(`/auth?mode=login&next=${JOIN_NEXT}`);
  };
  return (
    <div className="min-vh-100 bg-body-tertiary d-flex flex-column">
      <header className="py-3">
        <Container>
          <Link to="/" className="navbar-brand fw-bold text-primary fs-4">
            Checkpoint
          </Link>
        </Container>
      </header>
      <main className="flex-grow-1 px-3 pb-5">
        <JoinCard
          pending={isFetching}
          onJoin={onJoin}
          note="You will sign in or create a student account next; the class is joined right after."
        />
      </main>
    </div>
  );
}
