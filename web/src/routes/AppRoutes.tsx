// Route table per state and role (spec §2). Routes of later features are added when their screens exist;
// until then their paths fall to the 404 page.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { AppLayout } from '../components/AppLayout';
import { PageSpinner } from '../components/PageSpinner';
import { useAuth } from '../features/auth/useAuth';
import { navRole } from '../features/auth/user';
import { SignedOutVisit } from './guards';
import { UnauthorizedRedirect } from './UnauthorizedRedirect';
import { useColorMode } from './useColorMode';

const LandingPage = lazy(() => import('../features/landing/LandingPage').then((m) => ({ default: m.LandingPage })));
const AuthRoute = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.AuthRoute })));
const QuickAuthRoute = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.QuickAuthRoute })));
const SimpleLoginRoute = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.SimpleLoginRoute })));
const TeacherDashboard = lazy(() =>
  import('../features/dashboard/TeacherDashboard').then((m) => ({ default: m.TeacherDashboard })),
);
const StudentDashboard = lazy(() =>
  import('../features/dashboard/StudentDashboard').then((m) => ({ default: m.StudentDashboard })),
);
const ProfilePage = lazy(() => import('../features/profile/ProfilePage').then((m) => ({ default: m.ProfilePage })));
const SettingsPage = lazy(() => import('../features/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const SubscriptionPage = lazy(() =>
  import('../features/subscription/SubscriptionPage').then((m) => ({ default: m.SubscriptionPage })),
);
const NotFoundPage = lazy(() => import('../features/notFound/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

/** Built pages that need sign-in; a signed-out visit gets the Unauthorized toast and /auth. */
export const PROTECTED_PATHS = ['/profile', '/settings', '/subscription'] as const;

export function AppRoutes() {
  const { user, isLoading } = useAuth({ fresh: true });
  useColorMode(user);

  return (
    <>
      <UnauthorizedRedirect />
      <Suspense fallback={<PageSpinner />}>
        <Routes>
          {/* Reachable in every state: a first Google sign-in returns signed in to /auth?google_signup=true. */}
          <Route path="/auth" element={<AuthRoute />} />
          <Route path="/quick-auth" element={<QuickAuthRoute />} />
          <Route path="/simple-login" element={<SimpleLoginRoute />} />
          {isLoading ? (
            <Route path="*" element={<PageSpinner />} />
          ) : user ? (
            <Route element={<AppLayout user={user} />}>
              <Route index element={navRole(user) === 'student' ? <StudentDashboard /> : <TeacherDashboard />} />
              <Route path="/profile" element={<ProfilePage />} />
              <Route path="/settings" element={<SettingsPage />} />
              <Route path="/subscription" element={<SubscriptionPage />} />
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          ) : (
            <>
              <Route index element={<LandingPage />} />
              {PROTECTED_PATHS.map((path) => (
                <Route key={path} path={path} element={<SignedOutVisit />} />
              ))}
              <Route path="*" element={<NotFoundPage />} />
            </>
          )}
        </Routes>
      </Suspense>
    </>
  );
}
