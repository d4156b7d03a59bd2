// The services, written once (docs/adding-a-service.md). Everything that lists them reads this
// file: the gateway's routing and its <NAME>_URL variables, the all-in-one and migrate (app/),
// the stack (scripts/stack.ts), the benchmarks (bench/product.mjs), the stack-mode suites
// (e2e/stack), the lint boundaries (eslint.config.js) and identity's privacy fan-out. What is
// not JavaScript (the chart, the Containerfile, deploy/) is checked against it by
// packages/service-registry/test/listings.test.ts. Plain JavaScript so that Node reads it without
// a loader (bench/, eslint.config.js); `@type {const}` keeps the names as literal types for TypeScript.
//
// Each entry, in start order:
//   name     the folder services/<name>, the package @checkpoint/<name>, the process the image
//            runs, the Postgres schema <name> owned by the role cp_<name>, the gateway's <NAME>_URL
//   port     its port in stack mode (`make stack`, bench/, e2e/faults and e2e/scale)
//   privacy  answers the district's privacy requests (export, deletion) by event: identity waits
//            for its answer (docs/adr/009-privacy-operations.md)
//   routes   the /api paths the gateway sends it: `*` is one path segment, a trailing `/**` the
//            path itself and anything below it; otherwise the path exactly (a trailing slash
//            allowed). The pattern with more segments wins, so specific paths may sit inside
//            another service's prefix (/api/classes/*/assessments in /api/classes/**).
export const services = /** @type {const} */ ([
  {
    name: 'identity',
    port: 8101,
    privacy: true,
    routes: ['/api/auth/**', '/api/district/**', '/api/classes/*/student-logins/**', '/api/classes/*/login-cards'],
  },
  {
    name: 'class',
    port: 8102,
    privacy: true,
    routes: ['/api/classes/**', '/api/student/classes', '/api/all-classes'],
  },
  {
    name: 'assessment',
    port: 8103,
    privacy: true,
    routes: [
      '/api/classes/*/assessments',
      '/api/classes/*/students/*/accommodations',
      '/api/classes/*/accommodations',
      '/api/assessments/**',
      '/api/questions/**',
      '/api/responses/**',
      '/api/results/**',
      '/api/student/available-assessments',
      '/api/student/results',
      '/api/student/accommodations',
      '/api/standards/**',
      '/api/common-assessments/**',
      '/api/bank/**',
      '/api/qti/**',
    ],
  },
  {
    name: 'generation',
    port: 8104,
    privacy: true,
    routes: [
      '/api/assessments/*/support-material/**',
      '/api/assessments/*/support-completion/**',
      '/api/assessments/*/recommendations/**',
      '/api/assessments/*/generation/**',
      '/api/support-content/**',
    ],
  },
  {
    name: 'analytics',
    port: 8105,
    privacy: true,
    routes: [
      '/api/classes/*/results',
      '/api/classes/*/grid',
      '/api/classes/*/mastery/**',
      '/api/mastery/**',
      '/api/common-assessments/*/report/**',
      '/api/assessments/*/results',
      '/api/assessments/*/progress',
      '/api/assessments/*/item-analysis',
      '/api/all-results',
      '/api/admin/**',
      '/api/reports/**',
      '/api/dashboard/**',
    ],
  },
  {
    name: 'integrations',
    port: 8106,
    privacy: true,
    routes: ['/api/lti/**', '/api/integrations/**'],
  },
]);
