import { Outlet } from 'react-router';
import Container from 'react-bootstrap/Container';
import { VerifyEmailBanner } from '../features/auth/VerifyEmailBanner';
import type { User } from '../features/auth/user';
import { AppNavbar } from './AppNavbar';

export function AppLayout({ user }: { user: User }) {
  return (
    <div className="min-vh-100 d-flex flex-column bg-body-tertiary">
      <AppNavbar user={user} />
      <VerifyEmailBanner user={user} />
      <Container as="main" fluid="lg" className="py-4 flex-grow-1">
        <Outlet />
      </Container>
    </div>
  );
}
