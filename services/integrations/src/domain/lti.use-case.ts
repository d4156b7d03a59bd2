// LTI 1.3 OIDC third-party login initiation and resource-link launch (docs/adr/014-lti.md).
// The login finds the platform's registration, keeps a single-use state and a nonce server-side
// and sends the browser to the platform's authorization URL; the launch takes that state once,
// verifies the id_token (signature against the platform's JWKS, iss, aud, azp, exp, nonce used
// once, deployment id of that registration, message type and version) and records the launch.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, ValidationError } from '@checkpoint/service-kit';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { LaunchesRepository } from '../data-access/launches.repository.ts';
import type { CheckpointRole, Peers } from '../data-access/peers.client.ts';
import type { RegistrationsRepository, StoredRegistration } from '../data-access/registrations.repository.ts';
import type { PlatformKeys } from './platform-keys.ts';
import { membershipsUrlOf } from './nrps.ts';
import { readAgsClaim, type AgsClaim, type ScoreUseCases } from './scores.use-case.ts';
import { UUID } from './ids.ts';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const LTI_CLAIMS = {
  messageType: `${CLAIM}message_type`,
  version: `${CLAIM}version`,
  deploymentId: `${CLAIM}deployment_id`,
  targetLinkUri: `${CLAIM}target_link_uri`,
  resourceLink: `${CLAIM}resource_link`,
  roles: `${CLAIM}roles`,
  context: `${CLAIM}context`,
  launchPresentation: `${CLAIM}launch_presentation`,
  custom: `${CLAIM}custom`,
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
} as const;

/** The launch's custom parameter naming the Checkpoint assessment a resource link opens. */
export const ASSESSMENT_PARAMETER = 'checkpoint_assessment_id';

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/';
/** LIS role URIs (LTI 1.3 §A.2): context (membership) roles, and the institution and system roles. */
const isRole = (roles: string[], names: string[]) =>
  roles.some((r) =>
    names.some(
      (n) =>
        r === `${LIS}membership#${n}` ||
        r.startsWith(`${LIS}membership/${n}#`) ||
        r === `${LIS}institution/person#${n}` ||
        r === `${LIS}system/person#${n}` ||
        // LTI 1.3 allows the short form of a context role.
        r === n,
    ),
  );

/**
 * The Checkpoint role of an LMS user: Administrator → district admin only when the district's
 * registration says so (else a teacher); Instructor (and its sub-roles, e.g. TeachingAssistant,
 * or an institution's Faculty) → teacher; Learner → student. Other roles (Mentor, a guest…) have
 * no Checkpoint role: undefined.
 */
export function checkpointRole(roles: string[], adminRoleFromLms: boolean): CheckpointRole | undefined {
  if (isRole(roles, ['Administrator'])) return adminRoleFromLms ? 'admin' : 'teacher';
  if (isRole(roles, ['Instructor', 'Faculty', 'ContentDeveloper'])) return 'teacher';
  if (isRole(roles, ['Learner', 'Student'])) return 'student';
  return undefined;
}

/** A refused login or launch: `invalid` (400) for a malformed request, `unauthorized` (401) for a token that does not prove itself. */
export class LaunchRefused extends AppError {
  constructor(kind: 'invalid' | 'unauthorized', code: string, what: string, message: string) {
    super(kind, code, message, { [what]: message });
  }
}

export interface LoginInput {
  iss: string;
  login_hint: string;
  target_link_uri: string;
  lti_message_hint?: string | undefined;
  client_id?: string | undefined;
  lti_deployment_id?: string | undefined;
  /** LTI client-side postMessage storage: the name of the platform's frame that keeps data for the tool. */
  lti_storage_target?: string | undefined;
}

/**
 * Where the browser keeps a login's binding in the platform's storage (LTI client-side postMessage
 * storage): the frame's name (`_parent` or a frame of the parent), the origin messages go to (the
 * platform's authorization endpoint's) and the key.
 */
export interface PlatformStorage {
  target: string;
  origin: string;
  key: string;
}

export interface VerifiedLaunch {
  launchId: string;
  tenantId: string;
  registrationId: string;
  issuer: string;
  deploymentId: string;
  lmsUserId: string;
  roles: string[];
  contextId: string | null;
  contextTitle: string | null;
  resourceLinkId: string;
  targetLinkUri: string;
  clientId: string;
  /** The platform's origin (its authorization endpoint's): the page that frames the launch's answer. */
  platformOrigin: string;
  adminRoleFromLms: boolean;
  /** The id_token's person claims (OpenID Connect standard claims, optional in LTI). */
  email: string | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
  name: string | undefined;
  /** `launch_presentation.document_target`: `iframe`, `window` or `frame` (undefined: not said). */
  documentTarget: string | undefined;
  messageType: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  /** A deep-linking request's settings (LTI Deep Linking 2.0): where to answer, and its `data` as JSON text. */
  deepLinking: { returnUrl: string; data: string | null } | undefined;
  /** The custom claim's `checkpoint_assessment_id` (undefined: absent). */
  customAssessmentId: string | undefined;
  /** The course's NRPS membership URL (2.0, within the egress rules) when the launch offers it. */
  membershipsUrl: string | undefined;
  /** The AGS line item of the link and the assessment it opens (a student's scores go there). */
  ags: AgsClaim | undefined;
}

/** Where a signed-in launch leads: the one-time sign-in URL, and what the page says. */
export interface Landing {
  handoffUrl: string;
  role: CheckpointRole;
  firstName: string;
  classId: string | null;
  /** The course's class was created by this launch. */
  classCreated: boolean;
  /** A learner's course has no class yet: an instructor must launch it first. */
  waitingForInstructor: boolean;
  /** The launch is in a window of its own (not the LMS's iframe): the browser may go there at once. */
  ownWindow: boolean;
  /** Where the one-time sign-in lands (an app path). */
  returnTo: string;
  /** A sentence for the launch page when the landing is not what the link asked (else undefined). */
  notice: string | undefined;
}

export interface LtiOptions {
  publicUrl: string;
  stateTtlSeconds: number;
  clockToleranceSeconds: number;
  /** The egress rules' loopback allowance (for the URLs a launch's claims give: NRPS; a deep-linking return URL). */
  allowLoopback?: boolean;
}

/** Where the deep-linking launch sends the teacher, and what the launch page says. */
export interface DeepLinkLanding {
  handoffUrl: string;
  firstName: string;
  ownWindow: boolean;
}

/** What a deep-linking request is kept as, server-side (the deep-linking use cases store it). */
export interface DeepLinkStart {
  tenantId: string;
  registrationId: string;
  userId: string;
  classId: string | null;
  deploymentId: string;
  returnUrl: string;
  data: string | null;
}

const hash = (state: string) => createHash('sha256').update(state).digest('base64url');
const token = () => randomBytes(32).toString('base64url');
/** Algorithms a platform may sign with (RSA and EC; never `none` or a shared secret). */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];

/** The name of the cookie binding one login's state to the browser (one per login: several launches may run at once). */
export const bindingCookieName = (state: string) => `cp_lti_${hash(state).slice(0, 16).replace(/[-_]/g, 'x')}`;

export function ltiUseCases(
  registrations: RegistrationsRepository,
  launches: LaunchesRepository,
  keys: PlatformKeys,
  options: LtiOptions,
  peers: Peers,
  /** The tool's copy of the district's assessments (from the assessment service's events). */
  assessments: { assessment(tenantId: string, id: string): Promise<{ classId: string } | undefined> },
  /** AGS: a student's launch with a line item links it (docs/adr/014-lti.md, "Scores to the LMS"). */
  scores?: Pick<ScoreUseCases, 'linkLaunch'>,
) {
  const launchUrl = `${options.publicUrl}/api/lti/launch`;
  const origin = new URL(options.publicUrl).origin;

  /** The registration a login names: by issuer, and by client id when the platform sends it (or when the issuer has several). */
  async function findRegistration(input: LoginInput): Promise<StoredRegistration> {
    const candidates = await registrations.forLogin(input.iss, input.client_id);
    if (candidates.length === 0)
      throw new LaunchRefused(
        'invalid',
        'lti_unknown_platform',
        input.client_id === undefined ? 'iss' : 'client_id',
        'No district has registered this platform (issuer and client id) with Checkpoint',
      );
    if (candidates.length > 1)
      throw new LaunchRefused(
        'invalid',
        'lti_client_id_required',
        'client_id',
        'Several registrations share this issuer: the login must name its client_id',
      );
    const reg = candidates[0]!;
    if (input.lti_deployment_id !== undefined && !reg.deploymentIds.includes(input.lti_deployment_id))
      throw new LaunchRefused(
        'invalid',
        'lti_unknown_deployment',
        'lti_deployment_id',
        'This deployment id is not one of the registration’s deployments',
      );
    return reg;
  }

  return {
    /**
     * OIDC login initiation: the URL of the platform's authorization endpoint to send the browser
     * to, and the browser binding (a cookie's name and value) of the state.
     */
    async login(
      input: LoginInput,
    ): Promise<{ url: string; binding: { name: string; value: string }; storage: PlatformStorage | undefined }> {
      let target: URL;
      try {
        target = new URL(input.target_link_uri);
      } catch {
        throw new ValidationError('target_link_uri must be a URL', { target_link_uri: 'Must be a URL' });
      }
      if (target.origin !== origin)
        throw new LaunchRefused(
          'invalid',
          'lti_target_link_uri',
          'target_link_uri',
          `The launch must target this tool (${origin})`,
        );
      const reg = await findRegistration(input);
      const state = token();
      const nonce = token();
      const binding = token();
      await launches.saveState(
        hash(state),
        {
          registrationId: reg.id,
          tenantId: reg.tenantId,
          nonce,
          targetLinkUri: target.toString(),
          bindingHash: hash(binding),
          storageTarget: input.lti_storage_target ?? null,
        },
        new Date(Date.now() + options.stateTtlSeconds * 1000),
      );
      const auth = new URL(reg.authorizationUrl);
      const params: Record<string, string> = {
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: reg.clientId,
        redirect_uri: launchUrl,
        login_hint: input.login_hint,
        state,
        nonce,
      };
      if (input.lti_message_hint !== undefined) params.lti_message_hint = input.lti_message_hint;
      for (const [k, v] of Object.entries(params)) auth.searchParams.set(k, v);
      const name = bindingCookieName(state);
      const storage =
        input.lti_storage_target === undefined
          ? undefined
          : { target: input.lti_storage_target, origin: auth.origin, key: name };
      return { url: auth.toString(), binding: { name, value: binding }, storage };
    },

    /**
     * A launch that comes without its browser binding (third-party cookies blocked) while its login
     * kept the binding in the platform's storage: where the browser reads it back. Undefined when the
     * login used no storage (or the state is unknown: the launch refuses it).
     */
    async storageOf(state: string): Promise<PlatformStorage | undefined> {
      const pending = await launches.peekState(hash(state));
      if (!pending?.storageTarget) return undefined;
      const reg = await registrations.byId(pending.registrationId);
      if (!reg) return undefined;
      return {
        target: pending.storageTarget,
        origin: new URL(reg.authorizationUrl).origin,
        key: bindingCookieName(state),
      };
    },

    /** The resource-link launch: the id_token verified and the launch recorded, else LaunchRefused naming what failed. */
    async launch(input: { id_token: string; state: string; binding?: string | undefined }): Promise<VerifiedLaunch> {
      const state = await launches.takeState(hash(input.state));
      if (!state)
        throw new LaunchRefused(
          'invalid',
          'lti_state',
          'state',
          'The launch’s state is unknown, expired or already used: start the launch again from the LMS',
        );
      // The browser that started the login sends its binding back when it can (the cookie, where
      // third-party cookies are allowed or in a window of its own; else from the platform's
      // storage); another value is another browser's. A login that kept it in the platform's
      // storage must bring it back: only that browser can read it there.
      if (input.binding === undefined && state.storageTarget !== null)
        throw new LaunchRefused(
          'invalid',
          'lti_state',
          'state',
          'This browser could not show that it started the launch: start it again from the LMS',
        );
      if (input.binding !== undefined && state.bindingHash !== null && hash(input.binding) !== state.bindingHash)
        throw new LaunchRefused(
          'invalid',
          'lti_state',
          'state',
          'The launch was started in another browser: start it again from the LMS',
        );
      const reg = await registrations.byId(state.registrationId);
      if (!reg) throw new LaunchRefused('invalid', 'lti_state', 'state', 'The registration of this launch was removed');
      const claims = await verify(input.id_token, reg);
      const refuse = (what: string, message: string) => new LaunchRefused('unauthorized', `lti_${what}`, what, message);
      if (claims.nonce !== state.nonce)
        throw refuse('nonce', 'The id_token’s nonce is not the one of this login (a replayed or foreign token)');
      const deploymentId = claims[LTI_CLAIMS.deploymentId];
      if (typeof deploymentId !== 'string' || !reg.deploymentIds.includes(deploymentId))
        throw refuse('deployment_id', 'The deployment id is not one of this registration’s deployments');
      const messageType = claims[LTI_CLAIMS.messageType];
      if (messageType !== 'LtiResourceLinkRequest' && messageType !== 'LtiDeepLinkingRequest')
        throw new LaunchRefused(
          'invalid',
          'lti_message_type',
          'message_type',
          `Message type ${String(messageType)} is not supported (only LtiResourceLinkRequest and LtiDeepLinkingRequest)`,
        );
      if (claims[LTI_CLAIMS.version] !== '1.3.0')
        throw new LaunchRefused('invalid', 'lti_version', 'version', 'The LTI version must be 1.3.0');
      const link = claims[LTI_CLAIMS.resourceLink] as { id?: unknown } | undefined;
      if (messageType === 'LtiResourceLinkRequest' && (typeof link?.id !== 'string' || link.id === ''))
        throw new LaunchRefused('invalid', 'lti_resource_link', 'resource_link', 'The launch names no resource link');
      const deepLinking =
        messageType === 'LtiDeepLinkingRequest'
          ? deepLinkingSettings(claims[LTI_CLAIMS.deepLinkingSettings])
          : undefined;
      if (typeof claims.sub !== 'string' || claims.sub === '')
        throw new LaunchRefused('invalid', 'lti_sub', 'sub', 'The launch names no user (sub)');
      const rolesClaim = claims[LTI_CLAIMS.roles];
      if (!Array.isArray(rolesClaim) || rolesClaim.some((r) => typeof r !== 'string'))
        throw new LaunchRefused('invalid', 'lti_roles', 'roles', 'The roles claim must be a list');
      const context = claims[LTI_CLAIMS.context] as { id?: unknown; title?: unknown } | undefined;
      const targetClaim = claims[LTI_CLAIMS.targetLinkUri];
      const launch = {
        id: randomUUID(),
        tenantId: reg.tenantId,
        registrationId: reg.id,
        deploymentId,
        lmsUserId: claims.sub.slice(0, 255),
        roles: (rolesClaim as string[]).slice(0, 50).map((r) => r.slice(0, 255)),
        contextId: typeof context?.id === 'string' ? context.id.slice(0, 255) : null,
        contextTitle: typeof context?.title === 'string' ? context.title.slice(0, 500) : null,
        resourceLinkId: typeof link?.id === 'string' && link.id !== '' ? link.id.slice(0, 255) : null,
        messageType: messageType as VerifiedLaunch['messageType'],
        targetLinkUri: typeof targetClaim === 'string' ? targetClaim.slice(0, 2000) : state.targetLinkUri,
      };
      const exp = new Date((claims.exp ?? 0) * 1000 + options.clockToleranceSeconds * 1000);
      if ((await launches.recordLaunch(launch, state.nonce, exp)) === 'replayed')
        throw refuse('nonce', 'The id_token’s nonce was used already (a replayed launch)');
      const { id: launchId, ...rest } = launch;
      const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' ? v.slice(0, max) : undefined);
      const presentation = claims[LTI_CLAIMS.launchPresentation] as { document_target?: unknown } | undefined;
      const assessmentId = customAssessmentId(claims[LTI_CLAIMS.custom]);
      return {
        launchId,
        issuer: reg.issuer,
        ...rest,
        clientId: reg.clientId,
        platformOrigin: new URL(reg.authorizationUrl).origin,
        adminRoleFromLms: reg.adminRoleFromLms,
        email: str(claims.email, 254),
        givenName: str(claims.given_name, 200),
        familyName: str(claims.family_name, 200),
        name: str(claims.name, 400),
        documentTarget: str(presentation?.document_target, 20),
        resourceLinkId: launch.resourceLinkId ?? '',
        deepLinking,
        customAssessmentId: assessmentId,
        membershipsUrl: membershipsUrlOf(claims, options.allowLoopback ?? false),
        ags: readAgsClaim(claims, assessmentId),
      };
    },

    /**
     * Signs the launch's LMS user in (identity finds or creates the account of the registration's
     * district) and brings them to the course's class: the first instructor launch of a course
     * creates it (class service) and links it; a later one reaches it (another instructor becomes a
     * co-teacher); a learner joins it, or waits for an instructor's first launch. Then a one-time
     * sign-in is opened for the browser, landing on the class page (teacher) or the dashboard, or
     * on the assessment the resource link names (`checkpoint_assessment_id`, see `assessmentLanding`).
     */
    async land(l: VerifiedLaunch): Promise<Landing> {
      const role = mappedRole(l);
      const { user, member, classId, classCreated } = await signInAndReach(l, role);
      if (user.role === 'student') await linkLineItem(l, user.id);
      const fallback =
        user.role === 'student' ? '/student-dashboard' : classId && member === 'teacher' ? `/class/${classId}` : '/';
      const { returnTo, notice } = await assessmentLanding(l, user.role, classId, fallback);
      const { handoffUrl } = await peers.handoff({ tenantId: l.tenantId, userId: user.id, returnTo });
      return {
        handoffUrl,
        role: user.role,
        firstName: user.firstName,
        classId,
        classCreated,
        waitingForInstructor: member === 'student' && l.contextId !== null && classId === null,
        ownWindow: l.documentTarget === 'window',
        returnTo,
        notice,
      };
    },

    /**
     * A deep-linking request (LTI Deep Linking 2.0): only a teacher may answer one. The LMS role
     * must map to teacher (checked before anyone is signed in) and so must the Checkpoint account
     * (an existing account keeps its role); else refused. The teacher is signed in as on a
     * resource-link launch (the course's class reached or made), the request kept server-side by
     * `keep` (its id), and the one-time sign-in lands on the page where they pick an assessment.
     */
    async landDeepLinking(
      l: VerifiedLaunch,
      keep: (start: DeepLinkStart) => Promise<string>,
    ): Promise<DeepLinkLanding> {
      const settings = l.deepLinking;
      if (!settings) throw new Error('landDeepLinking needs a deep-linking launch');
      const role = mappedRole(l);
      if (role !== 'teacher') throw deepLinkingRole();
      const { user, classId } = await signInAndReach(l, role);
      if (user.role !== 'teacher') throw deepLinkingRole();
      const id = await keep({
        tenantId: l.tenantId,
        registrationId: l.registrationId,
        userId: user.id,
        classId,
        deploymentId: l.deploymentId,
        returnUrl: settings.returnUrl,
        data: settings.data,
      });
      const { handoffUrl } = await peers.handoff({
        tenantId: l.tenantId,
        userId: user.id,
        returnTo: `/lti/deep-linking/${id}`,
      });
      return { handoffUrl, firstName: user.firstName, ownWindow: l.documentTarget === 'window' };
    },
  };

  /** AGS: the student's line item for the link's assessment, when the launch carries one. */
  async function linkLineItem(l: VerifiedLaunch, userId: string): Promise<void> {
    if (!scores || !l.ags) return;
    await scores.linkLaunch(
      {
        registrationId: l.registrationId,
        resourceLinkId: l.resourceLinkId,
        userId,
        tenantId: l.tenantId,
        deploymentId: l.deploymentId,
        lmsUserId: l.lmsUserId,
      },
      l.ags,
    );
  }

  function mappedRole(l: VerifiedLaunch): CheckpointRole {
    const role = checkpointRole(l.roles, l.adminRoleFromLms);
    if (!role)
      throw new LaunchRefused(
        'invalid',
        'lti_roles',
        'roles',
        'Your role in this course (neither instructor, learner nor administrator) has no place in Checkpoint',
      );
    return role;
  }

  /** The account of the launch's LMS user, and the course's class it reached (see `land`). */
  async function signInAndReach(l: VerifiedLaunch, role: CheckpointRole) {
    const [first, ...rest] = (l.name ?? '').split(' ');
    const { user } = await peers.signIn({
      tenantId: l.tenantId,
      issuer: l.issuer,
      clientId: l.clientId,
      subject: l.lmsUserId,
      email: l.email,
      firstName: l.givenName ?? first,
      lastName: l.familyName ?? (rest.join(' ') || undefined),
      role,
    });
    let classId: string | null = null;
    let classCreated = false;
    // The account's role decides (an existing account keeps the role it has in Checkpoint).
    const member = user.role === 'student' ? 'student' : user.role === 'teacher' ? 'teacher' : undefined;
    if (l.contextId !== null && member !== undefined) {
      const contextId = l.contextId;
      const linked = await launches.linkedClass(l.registrationId, contextId);
      if (linked) {
        try {
          await peers.joinClass({ tenantId: l.tenantId, classId: linked, userId: user.id, role: member });
          classId = linked;
        } catch (err) {
          // The class was archived or deleted in Checkpoint: signed in all the same, without it.
          if (!(err instanceof AppError && err.kind === 'not_found')) throw err;
        }
      } else if (member === 'teacher') {
        const made = await launches.linkOrCreate(
          { registrationId: l.registrationId, contextId, tenantId: l.tenantId, contextTitle: l.contextTitle },
          async () =>
            (
              await peers.createClass({
                tenantId: l.tenantId,
                teacherId: user.id,
                name: l.contextTitle ?? `LMS course ${contextId}`,
              })
            ).id,
        );
        classId = made.classId;
        classCreated = made.created;
        // Another instructor made it a moment ago: this one co-teaches.
        if (!made.created) await peers.joinClass({ tenantId: l.tenantId, classId, userId: user.id, role: member });
      }
    }
    await launches.attach(l.launchId, user.id, classId);
    return { user, member, classId, classCreated };
  }

  /**
   * A resource link naming an assessment (`checkpoint_assessment_id` in the custom claim) lands a
   * student on taking it and a teacher on its results, when it is an assessment of the course's
   * linked class, in the registration's district; anything else lands on the usual page with a
   * notice (never on another district's or another class's assessment).
   */
  async function assessmentLanding(
    l: VerifiedLaunch,
    role: CheckpointRole,
    classId: string | null,
    fallback: string,
  ): Promise<{ returnTo: string; notice: string | undefined }> {
    const id = l.customAssessmentId;
    if (id === undefined || l.messageType !== 'LtiResourceLinkRequest')
      return { returnTo: fallback, notice: undefined };
    const notice =
      'The assessment this link names is not one of this course’s class in Checkpoint: you land on your usual page instead.';
    if (!UUID.test(id) || classId === null || role === 'admin') return { returnTo: fallback, notice };
    const found = await assessments.assessment(l.tenantId, id);
    if (found?.classId !== classId) return { returnTo: fallback, notice };
    return { returnTo: role === 'student' ? `/assessment/${id}` : `/assessment-results/${id}`, notice: undefined };
  }

  // An https return URL (http with LTI_ALLOW_LOOPBACK), `ltiResourceLink` among the accepted types.
  /** The deep_linking_settings claim checked; `data` kept as JSON text (echoed as sent). */
  function deepLinkingSettings(raw: unknown): { returnUrl: string; data: string | null } {
    const refuse = (message: string) =>
      new LaunchRefused('invalid', 'lti_deep_linking_settings', 'deep_linking_settings', message);
    if (typeof raw !== 'object' || raw === null) throw refuse('The deep-linking request has no deep_linking_settings');
    const settings = raw as { deep_link_return_url?: unknown; accept_types?: unknown; data?: unknown };
    let returnUrl: URL;
    try {
      returnUrl = new URL(String(settings.deep_link_return_url));
    } catch {
      throw refuse('deep_link_return_url must be a URL');
    }
    const http = returnUrl.protocol === 'http:' && options.allowLoopback === true;
    if ((returnUrl.protocol !== 'https:' && !http) || returnUrl.username !== '' || returnUrl.password !== '')
      throw refuse('deep_link_return_url must be an https URL without credentials');
    if (returnUrl.href.length > 2000) throw refuse('deep_link_return_url is too long');
    const types = settings.accept_types;
    if (!Array.isArray(types) || !types.includes('ltiResourceLink'))
      throw refuse('accept_types must include ltiResourceLink (the only content item Checkpoint offers)');
    // Opaque to the tool, echoed as sent (a string in the spec's examples; some platforms send an object).
    const data = settings.data === undefined || settings.data === null ? null : JSON.stringify(settings.data);
    if (data !== null && data.length > 4000) throw refuse('data must be at most 4000 characters');
    return { returnUrl: returnUrl.href, data };
  }

  /** The id_token's claims once its signature, iss, aud, azp, exp and iat hold; else LaunchRefused naming the check. */
  async function verify(idToken: string, reg: StoredRegistration): Promise<JWTPayload> {
    const refuse = (what: string, message: string) => new LaunchRefused('unauthorized', `lti_${what}`, what, message);
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keys(reg.jwksUrl), {
        issuer: reg.issuer,
        audience: reg.clientId,
        algorithms: ALGORITHMS,
        clockTolerance: options.clockToleranceSeconds,
        requiredClaims: ['exp', 'iat', 'nonce'],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw refuse('exp', 'The id_token has expired');
      if (err instanceof joseErrors.JWTClaimValidationFailed) {
        const claim = err.claim;
        if (claim === 'iss') throw refuse('iss', 'The id_token’s issuer is not the registration’s');
        if (claim === 'aud') throw refuse('aud', 'The id_token’s audience is not the registration’s client id');
        throw refuse(claim, `The id_token’s ${claim} claim is not valid (${err.reason})`);
      }
      if (err instanceof joseErrors.JWSSignatureVerificationFailed)
        throw refuse('signature', 'The id_token’s signature does not verify against the platform’s keys');
      if (err instanceof joseErrors.JWKSNoMatchingKey)
        throw refuse('signature', 'No key of the platform’s JWKS matches the id_token’s key id');
      if (err instanceof joseErrors.JOSEAlgNotAllowed)
        throw refuse('signature', 'The id_token is signed with an algorithm that is not accepted');
      if (err instanceof joseErrors.JWSInvalid || err instanceof joseErrors.JWTInvalid)
        throw new LaunchRefused('invalid', 'lti_id_token', 'id_token', 'The id_token is not a well-formed signed JWT');
      if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid || err instanceof AppError)
        throw new LaunchRefused(
          'unauthorized',
          'lti_jwks',
          'jwks',
          'The platform’s public keys (JWKS URL) could not be read',
        );
      throw err;
    }
    const aud = payload.aud;
    if (Array.isArray(aud) && aud.length > 1 && payload.azp === undefined)
      throw refuse('azp', 'The id_token has several audiences and no azp');
    if (payload.azp !== undefined && payload.azp !== reg.clientId)
      throw refuse('azp', 'The id_token’s azp is not the registration’s client id');
    return payload;
  }
}

export type LtiUseCases = ReturnType<typeof ltiUseCases>;

/** A deep-linking request from someone who is not a teacher. */
function deepLinkingRole(): AppError {
  return new AppError(
    'forbidden',
    'lti_deep_linking_role',
    'Only a teacher can add Checkpoint assessments to a course (deep linking): launch it as the course’s instructor',
    { roles: 'Must be an instructor of the course, and a teacher in Checkpoint' },
  );
}

/** The custom claim's `checkpoint_assessment_id`, when it is a string (its form is checked where it is used). */
function customAssessmentId(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = (raw as Record<string, unknown>)[ASSESSMENT_PARAMETER];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 100) : undefined;
}
