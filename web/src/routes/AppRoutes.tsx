// Route table per state and role (spec §2); any other path is the 404 page.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { PageSpinner } from '../components/PageSpinner';
import { useAuth } from '../session/useAuth';
import { navRole } from '../session/user';
import { AdminOnly, ResultPracticeFor, SignedOutVisit, StudentOnly } from './guards';
import { UnauthorizedRedirect } from './UnauthorizedRedirect';
import { useColorMode } from './useColorMode';

// The signed-in shell (navbar, menus) is a chunk of its own: signed-out pages never load it.
const AppLayout = lazy(() => import('../components/AppLayout').then((m) => ({ default: m.AppLayout })));
const LandingPage = lazy(() => import('../features/landing/LandingPage').then((m) => ({ default: m.LandingPage })));
const AuthRoute = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.AuthRoute })));
const QuickAuthRoute = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.QuickAuthRoute })));
const SimpleLoginRoute = lazy(() => import('../features/auth/AuthPage').then((m) => ({ default: m.SimpleLoginRoute })));
const AcceptInvitationPage = lazy(() =>
  import('../features/auth/AcceptInvitationPage').then((m) => ({ default: m.AcceptInvitationPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/ForgotPasswordPage').then((m) => ({ default: m.ForgotPasswordPage })),
);
const ResetPasswordPage = lazy(() =>
  import('../features/auth/ResetPasswordPage').then((m) => ({ default: m.ResetPasswordPage })),
);
const VerifyEmailPage = lazy(() =>
  import('../features/auth/VerifyEmailPage').then((m) => ({ default: m.VerifyEmailPage })),
);
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
const ClassesPage = lazy(() => import('../features/classes/ClassesPage').then((m) => ({ default: m.ClassesPage })));
const ClassDetailPage = lazy(() =>
  import('../features/classes/ClassDetailPage').then((m) => ({ default: m.ClassDetailPage })),
);
const JoinClassPage = lazy(() =>
  import('../features/joinClass/JoinClassPage').then((m) => ({ default: m.JoinClassPage })),
);
const SignedOutJoinClassPage = lazy(() =>
  import('../features/joinClass/JoinClassPage').then((m) => ({ default: m.SignedOutJoinClassPage })),
);
const BrowseClassesPage = lazy(() =>
  import('../features/browseClasses/BrowseClassesPage').then((m) => ({ default: m.BrowseClassesPage })),
);
const AssessmentsPage = lazy(() =>
  import('../features/assessments/AssessmentsPage').then((m) => ({ default: m.AssessmentsPage })),
);
const AssessmentPreviewPage = lazy(() =>
  import('../features/assessments/AssessmentPreviewPage').then((m) => ({ default: m.AssessmentPreviewPage })),
);
const AssessmentEditPage = lazy(() =>
  import('../features/assessments/AssessmentEditPage').then((m) => ({ default: m.AssessmentEditPage })),
);
const TakeAssessmentPage = lazy(() =>
  import('../features/takeAssessment/TakeAssessmentPage').then((m) => ({ default: m.TakeAssessmentPage })),
);
const TryAsStudentPage = lazy(() =>
  import('../features/takeAssessment/TakeAssessmentPage').then((m) => ({ default: m.TryAsStudentPage })),
);
const SupportPracticePage = lazy(() =>
  import('../features/practice/SupportPracticePage').then((m) => ({ default: m.SupportPracticePage })),
);
const ResultPracticePage = lazy(() =>
  import('../features/practice/ResultPracticePage').then((m) => ({ default: m.ResultPracticePage })),
);
const AllStudentsPage = lazy(() =>
  import('../features/results/AllStudentsPage').then((m) => ({ default: m.AllStudentsPage })),
);
const ReportsPage = lazy(() => import('../features/reports/ReportsPage').then((m) => ({ default: m.ReportsPage })));
const AssessmentResultsPage = lazy(() =>
  import('../features/assessmentResults/AssessmentResultsPage').then((m) => ({ default: m.AssessmentResultsPage })),
);
const AdminDashboardPage = lazy(() =>
  import('../features/admin/AdminDashboardPage').then((m) => ({ default: m.AdminDashboardPage })),
);
const AdminLayout = lazy(() => import('../features/admin/AdminLayout').then((m) => ({ default: m.AdminLayout })));
const DistrictUsersPage = lazy(() =>
  import('../features/admin/DistrictUsersPage').then((m) => ({ default: m.DistrictUsersPage })),
);
const AdminSignInSection = lazy(() =>
  import('../features/admin/AdminSections').then((m) => ({ default: m.AdminSignInSection })),
);
const AdminRosterSection = lazy(() =>
  import('../features/admin/AdminSections').then((m) => ({ default: m.AdminRosterSection })),
);
const AdminPrivacySection = lazy(() =>
  import('../features/admin/AdminSections').then((m) => ({ default: m.AdminPrivacySection })),
);
const NotFoundPage = lazy(() => import('../features/notFound/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

/** Built pages that need sign-in; a signed-out visit gets the Unauthorized toast and /auth. */
export const PROTECTED_PATHS = [
  '/profile',
  '/settings',
  '/subscription',
  '/classes',
  '/class/:id',
  '/browse-classes',
  '/assessments',
  '/assessment-preview/:id',
  '/assessment-edit/:id',
  '/assessment-try/:id',
  '/assessment/:id',
  '/support/:id/:type',
  '/support-content/:resultId',
  '/interactive-support/:resultId',
  '/student-dashboard',
  '/dashboard',
  '/students',
  '/reports',
  '/assessment-results/:id',
  '/admin',
  '/admin/users',
  '/admin/sign-in',
  '/admin/roster',
  '/admin/privacy',
] as const;

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
          {/* A district admin's invitation link: opened signed out (accepting starts the new account's session). */}
          <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
          {/* Mailed links and the reset request: opened signed out as well as signed in. */}
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          {isLoading ? (
            <Route path="*" element={<PageSpinner />} />
          ) : user ? (
            <Route element={<AppLayout user={user} />}>
              <Route index element={navRole(user) === 'student' ? <StudentDashboard /> : <TeacherDashboard />} />
              <Route path="/profile" element={<ProfilePage />} />
              <Route path="/settings" element={<SettingsPage />} />
              <Route path="/join-class" element={<JoinClassPage />} />
              <Route
                path="/browse-classes"
                element={
                  <StudentOnly>
                    <BrowseClassesPage />
                  </StudentOnly>
                }
              />
              {/* Assessment screens: students take, teachers may preview. */}
              <Route path="/assessment/:id" element={<TakeAssessmentPage />} />
              <Route
                path="/student-dashboard"
                element={
                  <StudentOnly>
                    <StudentDashboard />
                  </StudentOnly>
                }
              />
              <Route
                path="/support/:id/:type"
                element={
                  <StudentOnly>
                    <SupportPracticePage />
                  </StudentOnly>
                }
              />
              {/* Practice by result: one path per role, each sending the other role to its own. */}
              <Route
                path="/support-content/:resultId"
                element={
                  <ResultPracticeFor role="student">
                    <ResultPracticePage />
                  </ResultPracticeFor>
                }
              />
              <Route
                path="/interactive-support/:resultId"
                element={
                  <ResultPracticeFor role="teacher">
                    <ResultPracticePage />
                  </ResultPracticeFor>
                }
              />
              {navRole(user) !== 'student' && (
                <>
                  <Route path="/dashboard" element={<TeacherDashboard />} />
                  {/* Students have no plan (and see no billing). */}
                  <Route path="/subscription" element={<SubscriptionPage />} />
                  <Route path="/classes" element={<ClassesPage />} />
                  <Route path="/class/:id" element={<ClassDetailPage />} />
                  <Route path="/assessments" element={<AssessmentsPage />} />
                  <Route path="/assessment-preview/:id" element={<AssessmentPreviewPage />} />
                  <Route path="/assessment-edit/:id" element={<AssessmentEditPage />} />
                  <Route path="/assessment-try/:id" element={<TryAsStudentPage />} />
                  <Route path="/students" element={<AllStudentsPage />} />
                  <Route path="/reports" element={<ReportsPage />} />
                  <Route path="/assessment-results/:id" element={<AssessmentResultsPage />} />
                  {/* The admin's sections, one URL each (features/admin/AdminLayout.tsx). */}
                  <Route
                    path="/admin"
                    element={
                      <AdminOnly>
                        <AdminLayout />
                      </AdminOnly>
                    }
                  >
                    <Route index element={<AdminDashboardPage />} />
                    <Route path="users" element={<DistrictUsersPage />} />
                    <Route path="sign-in" element={<AdminSignInSection />} />
                    <Route path="roster" element={<AdminRosterSection />} />
                    <Route path="privacy" element={<AdminPrivacySection />} />
                  </Route>
                </>
              )}
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          ) : (
            <>
              <Route index element={<LandingPage />} />
              <Route path="/join-class" element={<SignedOutJoinClassPage />} />
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
