// LTI Dynamic Registration 1.0 (1EdTech), the tool's side, and the one-time links that start it
// (docs/adr/014-lti.md). A district's admin (or the operator) makes a link naming their district;
// the LMS admin gives it to the platform, which opens it with `openid_configuration` and
// `registration_token`. The tool reads the platform's configuration (its issuer must be on the
// configuration URL's origin), posts its own client registration to the platform's
// registration_endpoint (the token as Bearer), and stores what came back (client id, deployment
// id) with the platform's endpoints for the link's district, using the link once. Every call to
// the platform follows the egress rules of every URL a user gives; a refusal names what failed and
// stores nothing.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AppError, checkOutboundUrl, fetchOutbound, ValidationError } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { Registration, RegistrationInput } from '../api/registrations.schemas.ts';
import type { RegistrationLinksRepository } from '../data-access/registration-links.repository.ts';

export const TOOL_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
export const PLATFORM_CONFIGURATION = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
/** What the tool asks for: AGS (line items, results, scores) and NRPS (the course's members). */
export const TOOL_SCOPES = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly',
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
];

export interface DynamicRegistrationOptions {
  publicUrl: string;
  linkTtlSeconds: number;
  allowLoopback: boolean;
  timeoutMs: number;
}

export interface RegisterInput {
  rt: string;
  openid_configuration: string;
  registration_token?: string | undefined;
}

export interface RegistrationLink {
  url: string;
  expiresAt: string;
}

const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

const endpoint = z.string().min(1).max(2000);
/** The part of the platform's OpenID configuration the tool reads (section 3.4 of the spec). */
const platformConfigurationSchema = z.object({
  issuer: endpoint,
  authorization_endpoint: endpoint,
  token_endpoint: endpoint,
  jwks_uri: endpoint,
  registration_endpoint: endpoint,
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  [PLATFORM_CONFIGURATION]: z
    .object({ product_family_code: z.string().max(200).optional(), version: z.string().max(200).optional() })
    .optional(),
});

/** The platform's answer to the registration (section 3.6): the client id, and the deployment id. */
const registrationAnswerSchema = z.object({
  client_id: z.string().trim().min(1).max(255),
  [TOOL_CONFIGURATION]: z.object({ deployment_id: z.string().trim().min(1).max(255).optional() }).optional(),
});

function parseJson(body: Buffer, field: string, what: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ValidationError(`The platform's ${what} is not JSON`, { [field]: 'Did not answer JSON' });
  }
}

/** The first problem of a zod parse, as `field.path: message`. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || '(document)'}: ${issue.message}`;
}

export function dynamicRegistrationUseCases(links: RegistrationLinksRepository, options: DynamicRegistrationOptions) {
  const publicUrl = options.publicUrl;
  const tool = {
    registerUrl: `${publicUrl}/api/lti/register`,
    loginUrl: `${publicUrl}/api/lti/login`,
    launchUrl: `${publicUrl}/api/lti/launch`,
    jwksUrl: `${publicUrl}/api/lti/jwks`,
  };
  const egress = (field: string) => ({ field, allowLoopback: options.allowLoopback });
  const linkRefused = () =>
    new ValidationError('This registration link is unknown, used or expired', {
      rt: 'Ask your Checkpoint district admin for a new dynamic registration link',
    });

  /** The client registration the tool posts (section 3.5.2 of the spec, as its examples show). */
  function clientRegistration() {
    return {
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: tool.loginUrl,
      redirect_uris: [tool.launchUrl],
      client_name: 'Checkpoint',
      jwks_uri: tool.jwksUrl,
      token_endpoint_auth_method: 'private_key_jwt',
      scope: TOOL_SCOPES.join(' '),
      [TOOL_CONFIGURATION]: {
        domain: new URL(publicUrl).host,
        target_link_uri: tool.launchUrl,
        description: 'Checkpoint formative assessments: quizzes, scores to the gradebook, rosters from the course.',
        claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
        messages: [
          { type: 'LtiResourceLinkRequest', target_link_uri: tool.launchUrl },
          { type: 'LtiDeepLinkingRequest', target_link_uri: tool.launchUrl, label: 'Checkpoint assessment' },
        ],
      },
    };
  }

  return {
    tool,

    /** A new one-time link for the district: the URL is shown once; only its hash is kept. */
    async createLink(tenantId: string): Promise<RegistrationLink> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + options.linkTtlSeconds * 1000);
      await links.insert(tenantId, hash(token), expiresAt);
      return { url: `${tool.registerUrl}?rt=${token}`, expiresAt: expiresAt.toISOString() };
    },

    /** The platform's call: registers the tool with it and stores the registration for the link's district. */
    async register(input: RegisterInput): Promise<Registration & { platform: string | undefined }> {
      const tokenHash = hash(input.rt);
      if (!(await links.findLive(tokenHash))) throw linkRefused();

      const configUrl = checkOutboundUrl(input.openid_configuration, egress('openid_configuration'));
      const rawConfig = await fetchOutbound(configUrl.toString(), {
        ...egress('openid_configuration'),
        maxBytes: 256 * 1024,
        timeoutMs: options.timeoutMs,
        accept: 'application/json',
      });
      const parsed = platformConfigurationSchema.safeParse(
        parseJson(rawConfig, 'openid_configuration', 'OpenID configuration'),
      );
      if (!parsed.success)
        throw new ValidationError(`The platform's OpenID configuration is incomplete (${firstIssue(parsed.error)})`, {
          openid_configuration: firstIssue(parsed.error),
        });
      const config = parsed.data;
      // Section 3.5.1: the issuer must match the configuration URL's origin.
      const issuer = checkOutboundUrl(config.issuer, egress('issuer'));
      if (issuer.origin !== configUrl.origin)
        throw new ValidationError(
          `The platform's issuer (${config.issuer}) is not on the origin of its OpenID configuration (${configUrl.origin})`,
          { issuer: 'Must match the openid_configuration URL' },
        );
      for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'registration_endpoint'] as const)
        checkOutboundUrl(config[field], egress(field));
      const methods = config.token_endpoint_auth_methods_supported;
      if (methods && !methods.includes('private_key_jwt'))
        throw new ValidationError('The platform does not accept private_key_jwt at its token endpoint', {
          token_endpoint_auth_methods_supported: 'Must include private_key_jwt',
        });

      const answer = await fetchOutbound(config.registration_endpoint, {
        ...egress('registration_endpoint'),
        maxBytes: 256 * 1024,
        timeoutMs: options.timeoutMs,
        accept: 'application/json',
        post: {
          body: JSON.stringify(clientRegistration()),
          contentType: 'application/json',
          authorization: input.registration_token ? `Bearer ${input.registration_token}` : undefined,
        },
      });
      const registered = registrationAnswerSchema.safeParse(parseJson(answer, 'registration_endpoint', 'registration'));
      if (!registered.success)
        throw new ValidationError(
          `The platform's answer to the registration is incomplete (${firstIssue(registered.error)})`,
          {
            registration_endpoint: firstIssue(registered.error),
          },
        );
      // The spec lets a platform leave the deployment out (it may make one only when the tool is
      // installed): the registration is then stored with none, and no launch passes until the
      // district's admin adds the deployment id the LMS shows.
      const deploymentId = registered.data[TOOL_CONFIGURATION]?.deployment_id;
      const stored: RegistrationInput = {
        issuer: config.issuer,
        clientId: registered.data.client_id,
        deploymentIds: deploymentId ? [deploymentId] : [],
        jwksUrl: config.jwks_uri,
        authorizationUrl: config.authorization_endpoint,
        tokenUrl: config.token_endpoint,
        // Never from the platform's say: the district's admin turns it on by hand.
        adminRoleFromLms: false,
      };
      const done = await links.useAndRegister(tokenHash, randomUUID(), stored);
      if (done === 'link_gone') throw linkRefused();
      if (done === 'taken')
        throw new AppError('conflict', 'registration_exists', 'This issuer and client id are registered already', {
          clientId: 'Already registered for this issuer',
        });
      const { tenantId: _t, ...registration } = done;
      return { ...registration, platform: config[PLATFORM_CONFIGURATION]?.product_family_code };
    },
  };
}

export type DynamicRegistrationUseCases = ReturnType<typeof dynamicRegistrationUseCases>;
