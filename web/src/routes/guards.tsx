import { useEffect, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import { PageSpinner } from '../components/PageSpinner';
import { sessionExpired } from '../features/auth/authSlice';
import { useAuth } from '../features/auth/useAuth';
import { navRole } from '../features/auth/user';

/** A signed-out visit to a protected page: 'Unauthorized' toast, then /auth after 500 ms. */
export function SignedOutVisit() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(sessionExpired());
  }, [dispatch]);
  return <PageSpinner />;
}

/** Student pages send any other role to / (spec §4). */
export function StudentOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user || navRole(user) !== 'student') return <Navigate to="/" replace />;
  return children;
}

/** The admin page sends any other role to / (spec §4). */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user || navRole(user) !== 'admin') return <Navigate to="/" replace />;
  return children;
}
