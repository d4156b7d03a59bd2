import { useEffect, type ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { useAppDispatch } from '../app/hooks';
import { PageSpinner } from '../components/PageSpinner';
import { sessionExpired } from '../session/authSlice';
import { useAuth } from '../session/useAuth';
import { navRole } from '../session/user';

/** A signed-out visit to a protected page: 'Unauthorized' toast, then /auth after 500 ms. */
export function SignedOutVisit() {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(sessionExpired());
  }, [dispatch]);
  return <PageSpinner />;
}

/** Student pages send any other role to /. */
export function StudentOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user || navRole(user) !== 'student') return <Navigate to="/" replace />;
  return children;
}

/**
 * Practice by result has one path per role: students practise at /support-content/{id},
 * teachers open the same practice at /interactive-support/{id}. A link followed by the other role
 * (a shared address) lands on that role's path instead of the dashboard or the 404 page.
 */
export function ResultPracticeFor({ role, children }: { role: 'student' | 'teacher'; children: ReactNode }) {
  const { user } = useAuth();
  const { resultId = '' } = useParams();
  const isStudent = Boolean(user && navRole(user) === 'student');
  if (role === 'student' && !isStudent) return <Navigate to={`/interactive-support/${resultId}`} replace />;
  if (role === 'teacher' && isStudent) return <Navigate to={`/support-content/${resultId}`} replace />;
  return children;
}

/** The admin page sends any other role to /. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user || navRole(user) !== 'admin') return <Navigate to="/" replace />;
  return children;
}
