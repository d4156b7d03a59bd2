import type { MouseEvent } from 'react';
import { Outlet } from 'react-router';
import Container from 'react-bootstrap/Container';
import { VerifyEmailBanner } from '../session/VerifyEmailBanner';
import type { User } from '../session/user';
import { AppNavbar } from './AppNavbar';
import { useTranslation } from '../i18n/react';

/** Moves the focus itself: the router owns the URL, so the #main fragment must not replace it. */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

export function AppLayout({ user }: { user: User }) {
  const { t } = useTranslation('common');
  return (
    <div className="min-vh-100 d-flex flex-column bg-body-tertiary">
      {/* First in the tab order: past the navigation to the page's content. Shown (in the flow, over
          nothing) only while it has the focus. */}
      <a href="#main" className="visually-hidden-focusable btn btn-primary m-2 align-self-start" onClick={skipToMain}>
        {t('shell.skip')}
      </a>
      <AppNavbar user={user} />
      <VerifyEmailBanner user={user} />
      <Container as="main" id="main" tabIndex={-1} fluid="lg" className="py-4 flex-grow-1">
        <Outlet />
      </Container>
    </div>
  );
}
