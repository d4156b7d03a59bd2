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
import { useTranslation } from '../../i18n/react';

function Tips() {
  const { t } = useTranslation('common');
  return (
    <div className="bg-body-tertiary rounded p-3 mt-4 small">
      <h2 className="h6">{t('join.tips')}</h2>
      <ul className="mb-0 ps-3">
        <li>{t('join.tip1')}</li>
        <li>{t('join.tip2')}</li>
        <li>{t('join.tip3')}</li>
      </ul>
    </div>
  );
}

function JoinCard({ pending, onJoin, note }: { pending: boolean; onJoin: (code: string) => unknown; note?: string }) {
  const { t } = useTranslation('common');
  return (
    <Card className="shadow-sm mx-auto" style={{ maxWidth: 480 }}>
      <Card.Body className="p-4">
        <h1 className="h3 text-center mb-1">{t('join.title')}</h1>
        <p className="text-center text-body-secondary mb-4">{t('join.intro')}</p>
        {note && <p className="small text-body-secondary">{note}</p>}
        <JoinClassForm pending={pending} onJoin={async (code) => void (await onJoin(code))} />
        <Tips />
      </Card.Body>
    </Card>
  );
}

/** Signed in: join now, then refresh the class lists and go to /. */
export function JoinClassPage() {
  const { t } = useTranslation('common');
  const [join, { isLoading }] = useJoinClassMutation();
  const toast = useToast();
  const navigate = useNavigate();

  const onJoin = async (joinCode: string) => {
    try {
      const result = await join({ joinCode }).unwrap();
      toast({ title: t('join.success'), description: t('join.joined', { name: result.className }) });
      navigate('/');
    } catch (error) {
      toast({ title: t('toast.error'), description: joinErrorMessage(error), variant: 'destructive' });
    }
  };

  return <JoinCard pending={isLoading} onJoin={onJoin} />;
}

/**
 * Signed out: check the code (GET /api/classes/join-code, rate limited per address), then keep it and
 * send the visitor to sign in (or sign up). A code that names no class is said here, at once.
 */
export function SignedOutJoinClassPage() {
  const { t } = useTranslation('common');
  const navigate = useNavigate();
  const toast = useToast();
  const [lookUp, { isFetching }] = useLazyLookUpJoinCodeQuery();
  const onJoin = async (joinCode: string) => {
    try {
      const found = await lookUp(joinCode).unwrap();
      toast({ title: t('join.found'), description: t('join.foundDescription', { name: found.className }) });
    } catch (error) {
      const description =
        isApiError(error) && error.status === 429 ? serverMessageOr(error, t('join.tooMany')) : joinErrorMessage(error);
      toast({ title: t('toast.error'), description, variant: 'destructive' });
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
        <JoinCard pending={isFetching} onJoin={onJoin} note={t('join.signedOutNote')} />
      </main>
    </div>
  );
}
