// LTI Deep Linking 2.0 (docs/adr/014-lti.md, "Deep linking"): a teacher's deep-linking request is
// kept server-side (the platform's return URL and data never pass through the browser), the teacher
// picks one of their own assessments, and the tool answers the platform with an
// LtiDeepLinkingResponse JWT signed with its current key: one ltiResourceLink content item opening
// that assessment (`custom.checkpoint_assessment_id`) with a line item of its total points.
import { randomBytes, randomUUID } from 'node:crypto';
import { AppError } from '@checkpoint/service-kit';
import { importJWK, SignJWT } from 'jose';
import type { DeepLinksRepository, KnownAssessment } from '../data-access/deep-links.repository.ts';
import type { RegistrationsRepository } from '../data-access/registrations.repository.ts';
import { ASSESSMENT_PARAMETER, type DeepLinkStart } from './lti.use-case.ts';
import type { ToolKeyRing } from './tool-keys.ts';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';

export interface DeepLinkingOptions {
  publicUrl: string;
  /** How long a teacher has to pick an assessment (the request is then refused). */
  requestTtlSeconds: number;
  /** The response JWT's lifetime (`exp`): short, the browser posts it at once. */
  responseTtlSeconds: number;
}

export interface DeepLinkCaller {
  userId: string;
  tenantId: string;
}

export interface DeepLinkChoice {
  id: string;
  title: string;
  totalPoints: number;
  /** The assessment is one of the LMS course's linked class. */
  inLinkedClass: boolean;
}

const requestGone = () =>
  new AppError(
    'not_found',
    'lti_deep_link_request',
    'This deep-linking request is unknown, expired, already answered or someone else’s: start it again from the LMS',
    { id: 'No pending deep-linking request of yours has this id' },
  );

const notYours = () =>
  new AppError('not_found', 'assessment_not_found', 'Assessment not found', {
    assessmentId: 'No assessment of yours has this id',
  });

export function deepLinkingUseCases(
  repo: DeepLinksRepository,
  registrations: RegistrationsRepository,
  keys: ToolKeyRing,
  options: DeepLinkingOptions,
) {
  const launchUrl = `${options.publicUrl}/api/lti/launch`;
  const choice = (a: KnownAssessment, classId: string | null): DeepLinkChoice => ({
    id: a.id,
    title: a.title,
    totalPoints: a.totalPoints,
    inLinkedClass: a.classId === classId,
  });

  return {
    /** Keeps a verified deep-linking request of a signed-in teacher: its id (the teacher's page names it). */
    async keep(start: DeepLinkStart): Promise<string> {
      const id = randomUUID();
      await repo.save({ id, ...start }, new Date(Date.now() + options.requestTtlSeconds * 1000));
      return id;
    },

    /** The pending request of this teacher, with their assessments to pick from (the linked class's first). */
    async view(caller: DeepLinkCaller, id: string) {
      const request = await repo.pending(id, caller.tenantId, caller.userId);
      if (!request) throw requestGone();
      const reg = await registrations.byId(request.registrationId);
      if (!reg) throw requestGone();
      const mine = await repo.ofTeacher(caller.tenantId, caller.userId, request.classId);
      return {
        id: request.id,
        classId: request.classId,
        platform: reg.issuer,
        assessments: mine.map((a) => choice(a, request.classId)),
      };
    },

    /**
     * The teacher picks one of their own assessments (another's, or one unknown: 404): the
     * LtiDeepLinkingResponse is signed and kept on the request for the browser to post once.
     */
    async answer(caller: DeepLinkCaller, id: string, assessmentId: string): Promise<{ formUrl: string }> {
      const request = await repo.pending(id, caller.tenantId, caller.userId);
      if (!request) throw requestGone();
      const reg = await registrations.byId(request.registrationId);
      if (!reg) throw requestGone();
      const assessment = await repo.assessment(caller.tenantId, assessmentId);
      if (assessment?.teacherId !== caller.userId) throw notYours();
      if (!(assessment.totalPoints > 0))
        throw new AppError(
          'conflict',
          'assessment_without_points',
          'This assessment has no questions (no points) yet',
          {
            assessmentId: 'Has no questions yet: wait for them, or pick another',
          },
        );
      const current = await keys.signingKey();
      const { kid, algorithm: alg } = current;
      const key = await importJWK(current.privateJwk, alg);
      const item = {
        type: 'ltiResourceLink',
        title: assessment.title,
        url: launchUrl,
        custom: { [ASSESSMENT_PARAMETER]: assessment.id },
        lineItem: { scoreMaximum: assessment.totalPoints, label: assessment.title, resourceId: assessment.id },
      };
      const jwt = await new SignJWT({
        nonce: randomBytes(24).toString('base64url'),
        [`${CLAIM}deployment_id`]: request.deploymentId,
        [`${CLAIM}message_type`]: 'LtiDeepLinkingResponse',
        [`${CLAIM}version`]: '1.3.0',
        ...(request.data !== null ? { [`${DL_CLAIM}data`]: JSON.parse(request.data) as unknown } : {}),
        [`${DL_CLAIM}content_items`]: [item],
      })
        .setProtectedHeader({ alg, kid, typ: 'JWT' })
        .setIssuer(reg.clientId)
        .setAudience(reg.issuer)
        .setIssuedAt()
        .setExpirationTime(`${options.responseTtlSeconds}s`)
        .setJti(randomUUID())
        .sign(key);
      if (!(await repo.answer(id, caller.tenantId, caller.userId, jwt))) throw requestGone();
      return { formUrl: `/api/lti/deep-linking/${id}/form` };
    },

    /** The signed response and where to post it, once (the request is deleted as it is read). */
    async form(caller: DeepLinkCaller, id: string): Promise<{ returnUrl: string; jwt: string }> {
      const response = await repo.takeResponse(id, caller.tenantId, caller.userId);
      if (!response) throw requestGone();
      return response;
    },
  };
}

export type DeepLinkingUseCases = ReturnType<typeof deepLinkingUseCases>;
