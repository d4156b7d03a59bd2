// The app's route table: every lazily loaded screen (its module under web/src, loaded on first
// visit) and, per route, the screens it renders with its JavaScript budget. AppRoutes.tsx builds its
// lazy components from SCREENS; scripts/web-budgets.mjs measures ROUTES against the build and
// refuses a screen no route lists, so a new screen is a line in SCREENS, its row in ROUTES and its
// <Route> in AppRoutes. The key of a screen is the path its loader imports (web-budgets checks it).

/** Lazily loaded screens by their module path under web/src. */
export const SCREENS = {
  // The signed-in shell (navbar, menus) is a chunk of its own: signed-out pages never load it.
  'components/AppLayout': () => import('../components/AppLayout'),
  'features/landing/LandingPage': () => import('../features/landing/LandingPage'),
  'features/auth/AuthPage': () => import('../features/auth/AuthPage'),
  'features/auth/AcceptInvitationPage': () => import('../features/auth/AcceptInvitationPage'),
  'features/auth/ForgotPasswordPage': () => import('../features/auth/ForgotPasswordPage'),
  'features/auth/ResetPasswordPage': () => import('../features/auth/ResetPasswordPage'),
  'features/auth/VerifyEmailPage': () => import('../features/auth/VerifyEmailPage'),
  'features/studentLogins/LoginCardPage': () => import('../features/studentLogins/LoginCardPage'),
  'features/dashboard/TeacherDashboard': () => import('../features/dashboard/TeacherDashboard'),
  'features/dashboard/StudentDashboard': () => import('../features/dashboard/StudentDashboard'),
  'features/profile/ProfilePage': () => import('../features/profile/ProfilePage'),
  'features/settings/SettingsPage': () => import('../features/settings/SettingsPage'),
  'features/subscription/SubscriptionPage': () => import('../features/subscription/SubscriptionPage'),
  'features/classes/ClassesPage': () => import('../features/classes/ClassesPage'),
  'features/classes/ClassDetailPage': () => import('../features/classes/ClassDetailPage'),
  'features/joinClass/JoinClassPage': () => import('../features/joinClass/JoinClassPage'),
  'features/browseClasses/BrowseClassesPage': () => import('../features/browseClasses/BrowseClassesPage'),
  'features/assessments/AssessmentsPage': () => import('../features/assessments/AssessmentsPage'),
  'features/assessments/AssessmentPreviewPage': () => import('../features/assessments/AssessmentPreviewPage'),
  'features/assessments/AssessmentEditPage': () => import('../features/assessments/AssessmentEditPage'),
  'features/bank/BankPage': () => import('../features/bank/BankPage'),
  'features/takeAssessment/TakeAssessmentPage': () => import('../features/takeAssessment/TakeAssessmentPage'),
  'features/practice/SupportPracticePage': () => import('../features/practice/SupportPracticePage'),
  'features/practice/ResultPracticePage': () => import('../features/practice/ResultPracticePage'),
  'features/results/AllStudentsPage': () => import('../features/results/AllStudentsPage'),
  'features/reports/ReportsPage': () => import('../features/reports/ReportsPage'),
  'features/assessmentResults/AssessmentResultsPage': () =>
    import('../features/assessmentResults/AssessmentResultsPage'),
  'features/admin/AdminLayout': () => import('../features/admin/AdminLayout'),
  'features/admin/AdminDashboardPage': () => import('../features/admin/AdminDashboardPage'),
  'features/admin/DistrictUsersPage': () => import('../features/admin/DistrictUsersPage'),
  'features/admin/AdminSections': () => import('../features/admin/AdminSections'),
  'features/standards/StandardsPage': () => import('../features/standards/StandardsPage'),
  'features/commonAssessments/CommonAssessmentsPage': () =>
    import('../features/commonAssessments/CommonAssessmentsPage'),
  'features/notFound/NotFoundPage': () => import('../features/notFound/NotFoundPage'),
};

export type ScreenModule = keyof typeof SCREENS;

export interface RouteBudget {
  /** The route(s) as the budget report names them. */
  route: string;
  /** The screens the route renders (the entry chunk and its static imports always count). */
  modules: readonly ScreenModule[];
  /** KB of JavaScript, gzip; every route at most 150 (docs/architecture.md, "JavaScript per route"). */
  budgetKb?: number;
}

/** Signed-in pages render inside the lazy app shell. */
const SHELL = 'components/AppLayout';

/** Route → the screens it renders and its budget. Every screen of SCREENS is in at least one row. */
export const ROUTES: readonly RouteBudget[] = [
  // The landing inside the app (a session that expired on /): held to the landing's budget too.
  { route: '/ (signed out, in the app)', modules: ['features/landing/LandingPage'], budgetKb: 90 },
  { route: '/auth, /quick-auth, /simple-login', modules: ['features/auth/AuthPage'] },
  { route: '/accept-invitation', modules: ['features/auth/AcceptInvitationPage'] },
  { route: '/forgot-password', modules: ['features/auth/ForgotPasswordPage'] },
  { route: '/reset-password', modules: ['features/auth/ResetPasswordPage'] },
  { route: '/verify-email', modules: ['features/auth/VerifyEmailPage'] },
  { route: '/login-card', modules: ['features/studentLogins/LoginCardPage'] },
  { route: '/join-class (signed out)', modules: ['features/joinClass/JoinClassPage'] },
  { route: '/ (teacher), /dashboard', modules: [SHELL, 'features/dashboard/TeacherDashboard'] },
  { route: '/ (student), /student-dashboard', modules: [SHELL, 'features/dashboard/StudentDashboard'] },
  { route: '/profile', modules: [SHELL, 'features/profile/ProfilePage'] },
  { route: '/settings', modules: [SHELL, 'features/settings/SettingsPage'] },
  { route: '/subscription', modules: [SHELL, 'features/subscription/SubscriptionPage'] },
  { route: '/join-class', modules: [SHELL, 'features/joinClass/JoinClassPage'] },
  { route: '/browse-classes', modules: [SHELL, 'features/browseClasses/BrowseClassesPage'] },
  { route: '/classes', modules: [SHELL, 'features/classes/ClassesPage'] },
  { route: '/class/:id', modules: [SHELL, 'features/classes/ClassDetailPage'] },
  { route: '/assessments', modules: [SHELL, 'features/assessments/AssessmentsPage'] },
  { route: '/assessment-preview/:id', modules: [SHELL, 'features/assessments/AssessmentPreviewPage'] },
  { route: '/assessment-edit/:id', modules: [SHELL, 'features/assessments/AssessmentEditPage'] },
  { route: '/bank', modules: [SHELL, 'features/bank/BankPage'] },
  {
    route: '/assessment/:id (taking page), /assessment-try/:id (a teacher trying it)',
    modules: [SHELL, 'features/takeAssessment/TakeAssessmentPage'],
    budgetKb: 120,
  },
  { route: '/support/:id/:type', modules: [SHELL, 'features/practice/SupportPracticePage'] },
  { route: '/support-content/:id, /interactive-support/:id', modules: [SHELL, 'features/practice/ResultPracticePage'] },
  { route: '/students', modules: [SHELL, 'features/results/AllStudentsPage'] },
  { route: '/reports', modules: [SHELL, 'features/reports/ReportsPage'] },
  { route: '/assessment-results/:id', modules: [SHELL, 'features/assessmentResults/AssessmentResultsPage'] },
  { route: '/admin', modules: [SHELL, 'features/admin/AdminLayout', 'features/admin/AdminDashboardPage'] },
  { route: '/admin/users', modules: [SHELL, 'features/admin/AdminLayout', 'features/admin/DistrictUsersPage'] },
  {
    route: '/admin/sign-in, /admin/roster, /admin/integrations, /admin/privacy',
    modules: [SHELL, 'features/admin/AdminLayout', 'features/admin/AdminSections'],
  },
  {
    route: '/admin/standards',
    modules: [SHELL, 'features/admin/AdminLayout', 'features/standards/StandardsPage'],
  },
  {
    route: '/admin/common-assessments',
    modules: [SHELL, 'features/admin/AdminLayout', 'features/commonAssessments/CommonAssessmentsPage'],
  },
  { route: 'any unknown path (404)', modules: ['features/notFound/NotFoundPage'] },
];
