// Routes per state and role (the lazy screens and their budgets: routeTable.ts); any other path is the 404 page.
import { lazy, Suspense, type ComponentType } from 'react';
import { Route, Routes } from 'react-router';
import { PageSpinner } from '../components/PageSpinner';
import { useAuth } from '../session/useAuth';
import { navRole } from '../session/user';
import { AdminOnly, ResultPracticeFor, SignedOutVisit, StudentOnly } from './guards';
import { UnauthorizedRedirect } from './UnauthorizedRedirect';
import { SCREENS, type ScreenModule } from './routeTable';
import { useColorMode } from './useColorMode';
import { useLocale } from './useLocale';

type Screen<M extends ScreenModule> = Awaited<ReturnType<(typeof SCREENS)[M]>>;
/** The names a screen module exports components under. */
type ComponentName<M extends ScreenModule> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React's own ComponentType<any>
  [K in keyof Screen<M>]: Screen<M>[K] extends ComponentType<any> ? K : never;
}[keyof Screen<M>];

/** A lazy component: the export `name` of the screen module `module` (routeTable.ts). */
function screen<M extends ScreenModule, K extends ComponentName<M>>(module: M, name: K) {
  type Props = Screen<M>[K] extends ComponentType<infer P> ? P : never;
  return lazy(() => SCREENS[module]().then((m) => ({ default: (m as Screen<M>)[name] as ComponentType<Props> })));
}

const AppLayout = screen('components/AppLayout', 'AppLayout');
const LandingPage = screen('features/landing/LandingPage', 'LandingPage');
const AuthRoute = screen('features/auth/AuthPage', 'AuthRoute');
const QuickAuthRoute = screen('features/auth/AuthPage', 'QuickAuthRoute');
const SimpleLoginRoute = screen('features/auth/AuthPage', 'SimpleLoginRoute');
const AcceptInvitationPage = screen('features/auth/AcceptInvitationPage', 'AcceptInvitationPage');
const ForgotPasswordPage = screen('features/auth/ForgotPasswordPage', 'ForgotPasswordPage');
const ResetPasswordPage = screen('features/auth/ResetPasswordPage', 'ResetPasswordPage');
const VerifyEmailPage = screen('features/auth/VerifyEmailPage', 'VerifyEmailPage');
const LoginCardPage = screen('features/studentLogins/LoginCardPage', 'LoginCardPage');
const TeacherDashboard = screen('features/dashboard/TeacherDashboard', 'TeacherDashboard');
const StudentDashboard = screen('features/dashboard/StudentDashboard', 'StudentDashboard');
const ProfilePage = screen('features/profile/ProfilePage', 'ProfilePage');
const SettingsPage = screen('features/settings/SettingsPage', 'SettingsPage');
const SubscriptionPage = screen('features/subscription/SubscriptionPage', 'SubscriptionPage');
const ClassesPage = screen('features/classes/ClassesPage', 'ClassesPage');
const ClassDetailPage = screen('features/classes/ClassDetailPage', 'ClassDetailPage');
const JoinClassPage = screen('features/joinClass/JoinClassPage', 'JoinClassPage');
const SignedOutJoinClassPage = screen('features/joinClass/JoinClassPage', 'SignedOutJoinClassPage');
const BrowseClassesPage = screen('features/browseClasses/BrowseClassesPage', 'BrowseClassesPage');
const AssessmentsPage = screen('features/assessments/AssessmentsPage', 'AssessmentsPage');
const AssessmentPreviewPage = screen('features/assessments/AssessmentPreviewPage', 'AssessmentPreviewPage');
const AssessmentEditPage = screen('features/assessments/AssessmentEditPage', 'AssessmentEditPage');
const TakeAssessmentPage = screen('features/takeAssessment/TakeAssessmentPage', 'TakeAssessmentPage');
const TryAsStudentPage = screen('features/takeAssessment/TakeAssessmentPage', 'TryAsStudentPage');
const SupportPracticePage = screen('features/practice/SupportPracticePage', 'SupportPracticePage');
const ResultPracticePage = screen('features/practice/ResultPracticePage', 'ResultPracticePage');
const AllStudentsPage = screen('features/results/AllStudentsPage', 'AllStudentsPage');
const ReportsPage = screen('features/reports/ReportsPage', 'ReportsPage');
const AssessmentResultsPage = screen('features/assessmentResults/AssessmentResultsPage', 'AssessmentResultsPage');
const DeepLinkPage = screen('features/lti/DeepLinkPage', 'DeepLinkPage');
const AdminDashboardPage = screen('features/admin/AdminDashboardPage', 'AdminDashboardPage');
const AdminLayout = screen('features/admin/AdminLayout', 'AdminLayout');
const DistrictUsersPage = screen('features/admin/DistrictUsersPage', 'DistrictUsersPage');
const AdminSignInSection = screen('features/admin/AdminSections', 'AdminSignInSection');
const AdminRosterSection = screen('features/admin/AdminSections', 'AdminRosterSection');
const AdminIntegrationsSection = screen('features/admin/AdminSections', 'AdminIntegrationsSection');
const AdminPrivacySection = screen('features/admin/AdminSections', 'AdminPrivacySection');
const StandardsPage = screen('features/standards/StandardsPage', 'StandardsPage');
const BankPage = screen('features/bank/BankPage', 'BankPage');
const CommonAssessmentsPage = screen('features/commonAssessments/CommonAssessmentsPage', 'CommonAssessmentsPage');
const NotFoundPage = screen('features/notFound/NotFoundPage', 'NotFoundPage');

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
  '/admin/integrations',
  '/admin/privacy',
  '/admin/standards',
  '/admin/common-assessments',
] as const;

export function AppRoutes() {
  const { user, isLoading } = useAuth({ fresh: true });
  useColorMode(user);
  useLocale(user);

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
          {/* A login card's QR (students without email): signs in whoever was signed in before. */}
          <Route path="/login-card" element={<LoginCardPage />} />
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
                  <Route path="/bank" element={<BankPage />} />
                  <Route path="/assessment-try/:id" element={<TryAsStudentPage />} />
                  <Route path="/students" element={<AllStudentsPage />} />
                  <Route path="/reports" element={<ReportsPage />} />
                  <Route path="/assessment-results/:id" element={<AssessmentResultsPage />} />
                  {/* An LMS's deep-linking request: the teacher picks the assessment (ADR 014). */}
                  <Route path="/lti/deep-linking/:id" element={<DeepLinkPage />} />
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
                    <Route path="integrations" element={<AdminIntegrationsSection />} />
                    <Route path="privacy" element={<AdminPrivacySection />} />
                    <Route path="standards" element={<StandardsPage />} />
                    <Route path="common-assessments" element={<CommonAssessmentsPage />} />
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
