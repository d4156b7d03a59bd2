// The LTI 1.3 tool's public routes: its keys, the OIDC login initiation and the launch.
import { z } from 'zod';

const param = (max: number) => z.string().min(1).max(max);

export const loginInput = z
  .object({
    iss: param(2000).describe("The platform's issuer."),
    login_hint: param(2000).describe('Opaque to the tool; sent back to the platform.'),
    target_link_uri: param(2000).describe('Where the launch should land (this tool).'),
    lti_message_hint: param(4000).optional().describe('Opaque to the tool; sent back to the platform.'),
    client_id: param(255).optional().describe('The client id of the registration.'),
    lti_deployment_id: param(255).optional().describe('The deployment the launch comes from.'),
    lti_storage_target: param(100)
      .regex(/^[A-Za-z0-9_.-]+$/, 'Must be a frame name (letters, digits, _ . -)')
      .optional()
      .describe(
        "LTI client-side postMessage storage: the platform's frame that keeps data for the tool (`_parent` or a frame's name).",
      ),
  })
  .meta({ id: 'LtiLoginInitiation' });

export const launchInput = z
  .object({
    id_token: param(20_000).describe("The platform's signed id_token."),
    state: param(200).describe('The state the login gave.'),
    binding: param(200)
      .optional()
      .describe(
        "The login's browser binding read back from the platform's storage (the launch page sends it when the binding cookie could not come back).",
      ),
  })
  .meta({ id: 'LtiLaunch' });
