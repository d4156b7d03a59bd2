// The gateway's OpenAPI document (/api/openapi.json) built offline, without a database or a
// running service: each service's routers document themselves as they are built, and a router
// only touches its dependencies when a request comes, so they get inert ones here. The web's API
// types are generated from this document (scripts/generate-web-api.ts); a contract test
// (e2e/api/openapi-agreement.contract.test.ts) checks that it equals the served one, so a router
// added to a service's service.ts and not here is found.
import {
  buildOpenApiDocument,
  mergeOpenApiDocuments,
  type ApiRouter,
  type OpenApiDocument,
} from '@checkpoint/service-kit';
import { SERVICE_NAMES, type ServiceName } from '@checkpoint/service-registry';
import { adminRouter } from '../../services/analytics/src/api/admin.router.ts';
import { dashboardRouter } from '../../services/analytics/src/api/dashboard.router.ts';
import { masteryRouter } from '../../services/analytics/src/api/mastery.router.ts';
import { reportsRouter } from '../../services/analytics/src/api/reports.router.ts';
import { commonReportRouter } from '../../services/analytics/src/api/common-report.router.ts';
import { resultsRouter } from '../../services/analytics/src/api/results.router.ts';
import { assessmentsRouter } from '../../services/assessment/src/api/assessments.router.ts';
import { standardsRouter } from '../../services/assessment/src/api/standards.router.ts';
import { qtiRouter } from '../../services/assessment/src/api/qti.router.ts';
import { accommodationsRouter } from '../../services/assessment/src/api/accommodations.router.ts';
import { commonAssessmentsRouter } from '../../services/assessment/src/api/common-assessments.router.ts';
import { takingRouter } from '../../services/assessment/src/api/taking.router.ts';
import { gradingRouter } from '../../services/assessment/src/api/grading.router.ts';
import { bankRouter } from '../../services/assessment/src/api/bank.router.ts';
import { assessmentConfigSchema } from '../../services/assessment/src/config.ts';
import { classesRouter } from '../../services/class/src/api/classes.router.ts';
import { enrolmentRouter, joinCodeLookupRouter } from '../../services/class/src/api/enrolment.router.ts';
import { generationRouter } from '../../services/generation/src/api/generation.router.ts';
import { practiceRouter } from '../../services/generation/src/api/practice.router.ts';
import { authRouter } from '../../services/identity/src/api/auth.router.ts';
import { identityConfigSchema } from '../../services/identity/src/config.ts';
import { districtRouter } from '../../services/identity/src/api/district.router.ts';
import { emailRouter } from '../../services/identity/src/api/email.router.ts';
import { googleRouter } from '../../services/identity/src/api/google.router.ts';
import { ltiHandoffRouter } from '../../services/identity/src/api/lti.routes.ts';
import { invitationsRouter } from '../../services/identity/src/api/invitations.router.ts';
import { privacyRouter } from '../../services/identity/src/api/privacy.router.ts';
import { rosterRouter } from '../../services/identity/src/api/roster.router.ts';
import { ssoRouter } from '../../services/identity/src/api/sso.router.ts';
import { studentLoginsRouter } from '../../services/identity/src/api/student-logins.router.ts';
import { ltiRouter } from '../../services/integrations/src/api/lti.router.ts';
import { dynamicRegistrationRouter } from '../../services/integrations/src/api/dynamic-registration.router.ts';
import { registrationsRouter } from '../../services/integrations/src/api/registrations.router.ts';

/** Any property of it is itself; spreading it gives nothing; calling it (a request) throws. */
const inert: never = new Proxy(() => {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => 0 : inert),
  ownKeys: () => [],
  apply: () => {
    throw new Error('A router built for the OpenAPI document cannot serve requests');
  },
}) as never;

/** The document states the upload limit: the default one, as a service started without it. */
const rosterUploadLimit = identityConfigSchema.shape.ROSTER_UPLOAD_LIMIT_BYTES.parse(undefined);
const standardsPackageLimit = assessmentConfigSchema.shape.STANDARDS_PACKAGE_LIMIT_BYTES.parse(undefined);
const qtiPackageLimit = assessmentConfigSchema.shape.QTI_PACKAGE_LIMIT_BYTES.parse(undefined);

/**
 * The routers of each service of packages/service-registry/services.js, as its service.ts lists
 * them (a service missing here is a type error).
 */
const ROUTERS: Record<ServiceName, () => ApiRouter[]> = {
  identity: () => [
    privacyRouter(inert),
    rosterRouter(inert, rosterUploadLimit),
    authRouter(inert),
    studentLoginsRouter(inert),
    emailRouter(inert),
    invitationsRouter(inert),
    districtRouter(inert),
    ssoRouter(inert),
    googleRouter(inert),
    ltiHandoffRouter(inert),
  ],
  class: () => [joinCodeLookupRouter(inert, inert), classesRouter(inert), enrolmentRouter(inert, inert)],
  assessment: () => [
    assessmentsRouter(inert, inert),
    takingRouter(inert),
    gradingRouter(inert),
    bankRouter(inert),
    standardsRouter(inert, standardsPackageLimit),
    qtiRouter(inert, qtiPackageLimit),
    accommodationsRouter(inert),
    commonAssessmentsRouter(inert),
  ],
  generation: () => [generationRouter(inert), practiceRouter(inert)],
  analytics: () => [
    resultsRouter(inert),
    masteryRouter(inert),
    dashboardRouter(inert, inert),
    reportsRouter(inert),
    adminRouter(inert),
    commonReportRouter(inert),
  ],
  integrations: () => [
    ltiRouter(inert, inert, inert),
    registrationsRouter(inert, inert),
    dynamicRegistrationRouter(inert),
  ],
};

/** The document the gateway serves, as plain JSON. */
export function buildApiDocument(): OpenApiDocument {
  const docs = SERVICE_NAMES.map((name) =>
    buildOpenApiDocument(`${name} service`, Object.assign({}, ...ROUTERS[name]().map((r) => r.paths))),
  );
  return JSON.parse(JSON.stringify(mergeOpenApiDocuments('Checkpoint API', docs))) as OpenApiDocument;
}
