// `npm run generate:api`: the web's API types and RTK Query endpoints, generated from the gateway's
// OpenAPI document (app/src/openapi-document.ts) by the Redux team's @rtk-query/codegen-openapi.
// Writes web/src/api/generated/{openapi.json,endpoints.ts}, both checked in; `--check` writes
// nothing and fails when they are not what the services' schemas give now (a step of `npm test`
// and `npm run lint`).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateEndpoints } from '@rtk-query/codegen-openapi';
import prettier from 'prettier';
import type { OpenApiDocument } from '@checkpoint/service-kit';
import { buildApiDocument } from '../app/src/openapi-document.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GENERATED_DIR = path.join(root, 'web/src/api/generated');
const PRETTIER_CONFIG = path.join(root, '.prettierrc.json');

/**
 * The endpoints' names (hooks: `use<Name>Query` / `use<Name>Mutation`), by operation. An operation
 * not named here gets the generator's name from its method and path (e.g. `getApiClassesById`).
 */
export const ENDPOINT_NAMES: Record<string, string> = {
  'POST /api/auth/simple-login': 'login',
  'POST /api/auth/simple-signup': 'signup',
  'GET /api/auth/invitations/{token}': 'getInvitation',
  'POST /api/auth/invitations/accept': 'acceptInvitation',
  'POST /api/auth/google/complete': 'completeGoogleSignup',
  'POST /api/auth/logout': 'logout',
  'PUT /api/auth/user': 'updateUser',
  'PATCH /api/auth/user/preferences': 'updatePreferences',
  'POST /api/auth/email/verify': 'verifyEmail',
  'POST /api/auth/email/resend': 'resendVerification',
  'POST /api/auth/password/forgot': 'forgotPassword',
  'POST /api/auth/password/reset': 'resetPassword',
  'PUT /api/auth/password': 'changePassword',
  'GET /api/auth/sso': 'lookUpSso',
  'GET /api/district': 'getDistrict',
  'GET /api/district/users': 'getDistrictUsers',
  'PATCH /api/district/users/{id}': 'changeUserRole',
  'DELETE /api/district/users/{id}': 'removeUser',
  'GET /api/district/invitations': 'getInvitations',
  'POST /api/district/invitations': 'inviteUser',
  'DELETE /api/district/invitations/{id}': 'revokeInvitation',
  'GET /api/district/privacy': 'getPrivacySettings',
  'PUT /api/district/privacy': 'setRetention',
  'GET /api/district/class-joins': 'getClassJoinPolicy',
  'PUT /api/district/class-joins': 'setClassJoinPolicy',
  'POST /api/district/students/{id}/exports': 'requestExport',
  'GET /api/district/students/{id}/exports/{requestId}': 'getExportStatus',
  'DELETE /api/district/students/{id}': 'deleteStudent',
  'GET /api/district/privacy/requests/{requestId}': 'getRequestStatus',
  'POST /api/district/deletion': 'deleteDistrict',
  'GET /api/district/audit': 'getAudit',
  'POST /api/common-assessments': 'createCommonAssessment',
  'GET /api/common-assessments': 'getCommonAssessments',
  'GET /api/common-assessments/{id}': 'getCommonAssessment',
  'GET /api/common-assessments/targets': 'getCommonAssessmentTargets',
  'PUT /api/common-assessments/{id}/questions': 'replaceCommonAssessmentQuestions',
  'POST /api/common-assessments/{id}/publish': 'publishCommonAssessment',
  'POST /api/common-assessments/{id}/assign': 'assignCommonAssessment',
  'GET /api/common-assessments/{id}/report': 'getCommonAssessmentReport',
  'GET /api/district/roster/imports': 'getRosterImports',
  'GET /api/district/roster/imports/{id}': 'getRosterImport',
  'POST /api/district/roster/imports/{id}/apply': 'applyRosterImport',
  'GET /api/district/sso': 'getSsoSettings',
  'PUT /api/district/sso': 'saveSsoConnection',
  'DELETE /api/district/sso': 'removeSsoConnection',
  'PUT /api/district/sso/password-sign-in': 'setPasswordSignIn',
  'GET /api/lti/jwks': 'getLtiJwks',
  'GET /api/lti/deep-linking/{id}': 'getLtiDeepLinkRequest',
  'POST /api/lti/deep-linking/{id}/response': 'answerLtiDeepLinkRequest',
  'GET /api/integrations/lti/registrations': 'getLtiRegistrations',
  'POST /api/integrations/lti/registrations': 'createLtiRegistration',
  'GET /api/integrations/lti/registrations/{id}': 'getLtiRegistration',
  'PUT /api/integrations/lti/registrations/{id}': 'updateLtiRegistration',
  'DELETE /api/integrations/lti/registrations/{id}': 'removeLtiRegistration',
  'POST /api/integrations/lti/registration-links': 'createLtiRegistrationLink',
  'GET /api/integrations/lti/classes/{classId}/roster': 'getLtiRoster',
  'POST /api/integrations/lti/classes/{classId}/roster/sync': 'syncLtiRoster',
  'GET /api/integrations/lti/assessments/{assessmentId}/scores': 'getLtiScores',
  'POST /api/integrations/lti/assessments/{assessmentId}/scores/resend': 'resendLtiScores',
  'GET /api/integrations/lti/score-failures': 'getLtiScoreFailures',
  'GET /api/classes/join-code': 'lookUpJoinCode',
  'GET /api/classes': 'getClasses',
  'POST /api/classes': 'createClass',
  'GET /api/classes/archived': 'getArchivedClasses',
  'GET /api/classes/{id}': 'getClass',
  'PUT /api/classes/{id}': 'updateClass',
  'DELETE /api/classes/{id}': 'deleteClass',
  'PUT /api/classes/{id}/archive': 'archiveClass',
  'PUT /api/classes/{id}/restore': 'restoreClass',
  'GET /api/classes/{id}/students': 'getClassStudents',
  'DELETE /api/classes/{id}/students/{studentId}': 'removeStudent',
  'GET /api/classes/{id}/accommodations': 'getClassAccommodations',
  'GET /api/classes/{id}/students/{studentId}/accommodations': 'getStudentAccommodations',
  'PUT /api/classes/{id}/students/{studentId}/accommodations': 'setStudentAccommodations',
  'GET /api/student/accommodations': 'getMyAccommodations',
  'GET /api/classes/{id}/student-logins': 'getStudentLogins',
  'POST /api/classes/{id}/student-logins': 'createStudentLogin',
  'PUT /api/classes/{id}/student-logins/{studentId}/secret': 'resetStudentSecret',
  'PUT /api/classes/{id}/student-logins/{studentId}': 'setUpStudentLogin',
  'PUT /api/district/students/{id}/sign-in': 'setStudentSignIn',
  'POST /api/classes/{id}/login-cards': 'printLoginCards',
  'DELETE /api/classes/{id}/login-cards': 'revokeLoginCards',
  'POST /api/auth/class-code': 'getClassCodeRoster',
  'POST /api/auth/class-code/login': 'classCodeLogin',
  'POST /api/auth/login-card': 'loginCardLogin',
  'GET /api/classes/{id}/teachers': 'getClassTeachers',
  'POST /api/classes/{id}/teachers': 'addClassTeacher',
  'DELETE /api/classes/{id}/teachers/{teacherId}': 'removeClassTeacher',
  'POST /api/classes/join': 'joinClass',
  'POST /api/classes/{id}/join-direct': 'joinClassDirect',
  'GET /api/student/classes': 'getStudentClasses',
  'GET /api/all-classes': 'getAllClasses',
  'GET /api/assessments': 'getAssessments',
  'POST /api/assessments': 'createAssessment',
  'GET /api/classes/{id}/assessments': 'getClassAssessments',
  'GET /api/assessments/{id}': 'getAssessment',
  'PUT /api/assessments/{id}': 'updateAssessment',
  'DELETE /api/assessments/{id}': 'deleteAssessment',
  'POST /api/assessments/{id}/assign': 'assignAssessment',
  'POST /api/assessments/{id}/copy': 'copyAssessment',
  'GET /api/assessments/{id}/questions': 'getQuestions',
  'POST /api/assessments/{id}/questions': 'addQuestion',
  'PUT /api/questions/{id}': 'updateQuestion',
  'DELETE /api/questions/{id}': 'deleteQuestion',
  'POST /api/questions/{id}/duplicate': 'duplicateQuestion',
  'PUT /api/assessments/{id}/questions/order': 'reorderQuestions',
  'GET /api/assessments/{id}/responses': 'getResponses',
  'GET /api/student/available-assessments': 'getAvailableAssessments',
  'POST /api/responses': 'saveResponse',
  'POST /api/results': 'submitResult',
  'GET /api/results/{id}': 'getResult',
  'POST /api/results/{id}/retake': 'grantRetake',
  'POST /api/results/{id}/reopen': 'reopenResult',
  'GET /api/student/results': 'getStudentResults',
  'PATCH /api/results/{resultId}/responses/{questionId}': 'regradeResponse',
  'PUT /api/results/{id}/feedback': 'setResultFeedback',
  'GET /api/results/{id}/regrades': 'getResultRegrades',
  'GET /api/assessments/{id}/to-review': 'getToReview',
  'GET /api/assessments/{id}/generation': 'getGeneration',
  'POST /api/assessments/{id}/generation/retry': 'retryGeneration',
  'GET /api/assessments/{id}/support-material/{type}': 'getSupportMaterial',
  'POST /api/assessments/{id}/support-completion': 'completeSupport',
  'GET /api/support-content/{resultId}': 'getSupportContent',
  'POST /api/support-content/{resultId}/submit': 'submitSupportContent',
  'POST /api/support-content/{resultId}/restart': 'restartSupportContent',
  'GET /api/assessments/{id}/recommendations/{type}': 'getRecommendation',
  'GET /api/classes/{id}/results': 'getClassResults',
  'GET /api/all-results': 'getAllResults',
  'GET /api/classes/{id}/grid': 'getClassGrid',
  'GET /api/classes/{id}/mastery': 'getClassMastery',
  'GET /api/mastery/students/{studentId}': 'getStudentMastery',
  'GET /api/mastery/district': 'getDistrictMastery',
  'GET /api/assessments/{id}/results': 'getAssessmentResults',
  'GET /api/assessments/{id}/progress': 'getAssessmentProgress',
  'GET /api/assessments/{id}/student-preview': 'getStudentPreview',
  'POST /api/assessments/{id}/student-preview/score': 'scoreStudentPreview',
  'GET /api/dashboard/students': 'getStudentsOverview',
  'GET /api/dashboard/usage': 'getUsage',
  'GET /api/reports': 'getReport',
  'GET /api/admin/stats': 'getAdminStats',
  'GET /api/bank/items': 'searchBank',
  'POST /api/bank/items': 'saveBankItem',
  'GET /api/bank/items/{id}': 'getBankItem',
  'PUT /api/bank/items/{id}': 'updateBankItem',
  'DELETE /api/bank/items/{id}': 'deleteBankItem',
  'POST /api/assessments/{id}/questions/from-bank': 'addFromBank',
};

/**
 * Operations the web calls its own way, so no endpoint is generated for them (their types are):
 * the current user (a 401 there means signed out, not an error) and the roster upload (a file
 * body, not JSON).
 */
const OWN_ENDPOINTS = new Set(['GET /api/auth/user', 'POST /api/district/roster/imports']);

type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
};

/**
 * The document as the generator gets it: endpoints named, and request bodies written out in place
 * so that a body next to path parameters is the argument's `body` (not a name taken from its schema).
 * Downloads, redirects and event streams (no JSON answer) are RTK Query endpoints of no use.
 */
function forCodegen(document: OpenApiDocument): { document: OpenApiDocument; skipped: Set<string> } {
  const copy = structuredClone(document) as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, unknown> };
  };
  const skipped = new Set<string>();
  for (const [route, item] of Object.entries(copy.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const key = `${method.toUpperCase()} ${route}`;
      const successes = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
      const json =
        successes.length > 0 &&
        successes.every(([, r]) => !r.content || Object.keys(r.content).join() === 'application/json');
      if (OWN_ENDPOINTS.has(key) || !json) skipped.add(key);
      if (ENDPOINT_NAMES[key]) operation.operationId = ENDPOINT_NAMES[key];
      const body = operation.requestBody?.content?.['application/json'];
      const ref = body?.schema?.$ref?.replace('#/components/schemas/', '');
      if (body && ref && copy.components?.schemas?.[ref]) body.schema = structuredClone(copy.components.schemas[ref]);
    }
  }
  return { document: copy as unknown as OpenApiDocument, skipped };
}

const HEADER =
  "// Generated by `npm run generate:api` from the gateway's OpenAPI document (openapi.json beside it).\n" +
  '// Do not edit: change the service schemas and regenerate. Tags and response transforms are added\n' +
  '// by the features (enhanceEndpoints).\n';

/** The generated files' text, by file name. */
export async function generateWebApi(): Promise<Record<string, string>> {
  const document = await prettier.format(JSON.stringify(buildApiDocument()), {
    ...(await prettier.resolveConfig(PRETTIER_CONFIG)),
    parser: 'json',
  });
  // The generator reads the document from a file.
  const dir = mkdtempSync(path.join(tmpdir(), 'web-api-'));
  try {
    const schemaFile = path.join(dir, 'openapi.json');
    const input = forCodegen(JSON.parse(document) as OpenApiDocument);
    writeFileSync(schemaFile, JSON.stringify(input.document));
    const endpoints = await generateEndpoints({
      schemaFile,
      apiFile: '../apiSlice',
      apiImport: 'apiSlice',
      exportName: 'generatedApi',
      hooks: true,
      // Path parameters are encoded here; query parameters by the base query (URLSearchParams).
      encodePathParams: true,
      flattenArg: true,
      useUnknown: true,
      prettierConfigFile: PRETTIER_CONFIG,
      filterEndpoints: (_name, operation) => !input.skipped.has(`${operation.verb.toUpperCase()} ${operation.path}`),
    });
    if (typeof endpoints !== 'string') throw new Error('The generator wrote a file instead of answering its text');
    return { 'openapi.json': document, 'endpoints.ts': HEADER + endpoints };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The names of the checked-in files that differ from a fresh generation (missing ones too). */
export async function staleFiles(): Promise<string[]> {
  const fresh = await generateWebApi();
  return Object.entries(fresh)
    .filter(([name, text]) => {
      try {
        return readFileSync(path.join(GENERATED_DIR, name), 'utf8') !== text;
      } catch {
        return true;
      }
    })
    .map(([name]) => name);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const stale = await staleFiles();
    if (stale.length > 0) {
      console.error(`web/src/api/generated is not current (${stale.join(', ')}): run npm run generate:api`);
      process.exit(1);
    }
    console.log('web/src/api/generated is current');
  } else {
    for (const [name, text] of Object.entries(await generateWebApi())) {
      writeFileSync(path.join(GENERATED_DIR, name), text);
      console.log(`wrote web/src/api/generated/${name}`);
    }
  }
}
