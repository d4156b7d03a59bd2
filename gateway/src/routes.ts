// Which service owns which public API path (docs/architecture.md). First match wins, so the more
// specific patterns come first.
export const SERVICES = ['identity', 'class', 'assessment', 'generation', 'analytics'] as const;
export type ServiceName = (typeof SERVICES)[number];

const ID = '[^/]+';
const ROUTES: ReadonlyArray<readonly [RegExp, ServiceName]> = [
  [/^\/api\/auth(\/|$)/, 'identity'],
  // District administration (users, invitations, sign-in settings): identity, the accounts' owner.
  [/^\/api\/district(\/|$)/, 'identity'],
  [new RegExp(`^/api/classes/${ID}/assessments/?$`), 'assessment'],
  [new RegExp(`^/api/classes/${ID}/(results|grid)/?$`), 'analytics'],
  [/^\/api\/classes(\/|$)/, 'class'],
  [/^\/api\/student\/classes\/?$/, 'class'],
  [/^\/api\/all-classes\/?$/, 'class'],
  [
    new RegExp(`^/api/assessments/${ID}/(support-material|support-completion|recommendations|generation)(/|$)`),
    'generation',
  ],
  [/^\/api\/support-content(\/|$)/, 'generation'],
  [new RegExp(`^/api/assessments/${ID}/(results|progress)/?$`), 'analytics'],
  [/^\/api\/assessments(\/|$)/, 'assessment'],
  [/^\/api\/questions(\/|$)/, 'assessment'],
  [/^\/api\/responses(\/|$)/, 'assessment'],
  [/^\/api\/results(\/|$)/, 'assessment'],
  [/^\/api\/student\/(available-assessments|results)\/?$/, 'assessment'],
  [/^\/api\/all-results\/?$/, 'analytics'],
  [/^\/api\/admin(\/|$)/, 'analytics'],
  [/^\/api\/reports(\/|$)/, 'analytics'],
  [/^\/api\/dashboard(\/|$)/, 'analytics'],
];

export function serviceForPath(path: string): ServiceName | undefined {
  for (const [pattern, service] of ROUTES) if (pattern.test(path)) return service;
  return undefined;
}
