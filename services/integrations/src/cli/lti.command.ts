// `npm run lti -- list|add|remove|link --district <district id> …` (`checkpoint lti …` in the
// image): a district's LTI 1.3 platform registrations, kept by the operator (for when the district
// has no admin yet, or the LMS admin calls the operator), with the same checks as Admin →
// Integrations (docs/adr/014-lti.md): the same fields, the egress rules on every URL, an issuer and
// client id registered once. `link` prints a one-time dynamic registration URL for the district.
// The district is named by its id (this service knows districts only by id; Admin → District and
// `make-admin`/`create-district` show it). Database as make-admin: DATABASE_URL, else the embedded
// Postgres of DATA_DIR.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  AppError,
  ConfigError,
  createPool,
  embeddedDatabaseUrl,
  operatorDatabaseShape,
  parseConfig,
  type CommandOutput,
} from '@checkpoint/service-kit';
import { registrationBody, type Registration } from '../api/registrations.schemas.ts';
import { integrationsConfigSchema } from '../config.ts';
import { registrationLinksRepository } from '../data-access/registration-links.repository.ts';
import { registrationsRepository } from '../data-access/registrations.repository.ts';
import { dynamicRegistrationUseCases } from '../domain/dynamic-registration.use-case.ts';
import { registrationUseCases } from '../domain/registrations.use-case.ts';
import { UUID } from '../domain/ids.ts';

export const LTI_USAGE = `Usage:
  npm run lti -- list   --district <district id>
  npm run lti -- add    --district <district id> --issuer <url> --client-id <id> --deployment-ids <id1,id2>
                        --jwks-url <url> --auth-url <url> --token-url <url>
  npm run lti -- remove --district <district id> --registration <registration id>
  npm run lti -- link   --district <district id>
list: the district's LTI 1.3 platform registrations and the URLs to give the platform.
add: registers a platform (LMS) by hand, with the values its admin page shows.
remove: removes a registration (launches from it stop at once).
link: prints a one-time LTI Dynamic Registration URL for the LMS admin (Moodle, Canvas), with its expiry.`;

export const ltiCommandConfigSchema = z.object({
  ...operatorDatabaseShape('integrations'),
  PUBLIC_URL: integrationsConfigSchema.shape.PUBLIC_URL,
  LTI_ALLOW_LOOPBACK: integrationsConfigSchema.shape.LTI_ALLOW_LOOPBACK,
  LTI_REGISTRATION_LINK_TTL_SECONDS: integrationsConfigSchema.shape.LTI_REGISTRATION_LINK_TTL_SECONDS,
  LTI_REGISTRATION_TIMEOUT_MS: integrationsConfigSchema.shape.LTI_REGISTRATION_TIMEOUT_MS,
});

const ACTIONS = ['list', 'add', 'remove', 'link'] as const;
/** The command's options, by the registration field each one fills. */
const ADD_OPTIONS = {
  issuer: 'issuer',
  'client-id': 'clientId',
  'deployment-ids': 'deploymentIds',
  'jwks-url': 'jwksUrl',
  'auth-url': 'authorizationUrl',
  'token-url': 'tokenUrl',
} as const;
const OPTION_OF: Record<string, string> = Object.fromEntries(Object.entries(ADD_OPTIONS).map(([o, f]) => [f, o]));

/** A refusal as the operator reads it: the message and each option named. */
function explain(err: AppError): string {
  const fields = Object.entries(err.fields ?? {}).map(([field, why]) => `\n  --${OPTION_OF[field] ?? field}: ${why}`);
  return `${err.message}${fields.join('')}`;
}

function describe(r: Registration, out: CommandOutput): void {
  out.log(`Registration ${r.id}:`);
  out.log(`  issuer          ${r.issuer}`);
  out.log(`  client id       ${r.clientId}`);
  out.log(`  deployment ids  ${r.deploymentIds.join(', ') || '(none yet: add the one the LMS shows)'}`);
  out.log(`  platform JWKS   ${r.jwksUrl}`);
  out.log(`  authorization   ${r.authorizationUrl}`);
  out.log(`  token URL       ${r.tokenUrl}`);
}

/** Runs the command; resolves to the process exit code (0 done, 1 refused or failed). */
export async function runLtiCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  out: CommandOutput = { log: (l) => console.log(l), error: (l) => console.error(l) },
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        district: { type: 'string' },
        registration: { type: 'string' },
        ...Object.fromEntries(Object.keys(ADD_OPTIONS).map((o) => [o, { type: 'string' as const }])),
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    out.error(`lti: ${(err as Error).message}\n${LTI_USAGE}`);
    return 1;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) {
    out.log(LTI_USAGE);
    return 0;
  }
  const [action, ...extra] = parsed.positionals;
  if (!action || !(ACTIONS as readonly string[]).includes(action) || extra.length > 0) {
    out.error(`lti: ${action ? `unknown action ${[action, ...extra].join(' ')}` : 'no action given'}\n${LTI_USAGE}`);
    return 1;
  }
  const district = typeof values.district === 'string' ? values.district.trim() : '';
  if (!UUID.test(district)) {
    out.error(
      `lti: --district must be the district's id (a UUID)${district ? `, not "${district}"` : ''}\n${LTI_USAGE}`,
    );
    return 1;
  }
  const registration = typeof values.registration === 'string' ? values.registration.trim() : undefined;
  if (action === 'remove' && (!registration || !UUID.test(registration))) {
    out.error(`lti: remove needs --registration <registration id> (a UUID; \`lti list\` shows them)\n${LTI_USAGE}`);
    return 1;
  }
  const given = Object.keys(ADD_OPTIONS).filter((o) => values[o] !== undefined);
  if (action !== 'add' && given.length > 0) {
    out.error(`lti: --${given.join(', --')} only go with add\n${LTI_USAGE}`);
    return 1;
  }
  let input;
  if (action === 'add') {
    const missing = Object.keys(ADD_OPTIONS).filter((o) => typeof values[o] !== 'string');
    if (missing.length > 0) {
      out.error(`lti: add needs --${missing.join(', --')}\n${LTI_USAGE}`);
      return 1;
    }
    const raw = Object.fromEntries(
      Object.entries(ADD_OPTIONS).map(([option, field]) => {
        const value = String(values[option]);
        return [field, field === 'deploymentIds' ? value.split(',').map((id) => id.trim()) : value];
      }),
    );
    const checked = registrationBody.safeParse(raw);
    if (!checked.success) {
      const lines = checked.error.issues.map(
        (i) => `\n  --${OPTION_OF[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`,
      );
      out.error(`lti: the registration is not valid:${lines.join('')}`);
      return 1;
    }
    input = checked.data;
  }

  let config: z.infer<typeof ltiCommandConfigSchema>;
  try {
    config = parseConfig(ltiCommandConfigSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out.error(`lti: ${err.message}`);
    return 1;
  }
  const url = config.DATABASE_URL ?? (await embeddedDatabaseUrl(path.resolve(config.DATA_DIR)));
  if (!url) {
    out.error(`lti: no running Checkpoint database in ${config.DATA_DIR}/, and DATABASE_URL is not set.`);
    return 1;
  }
  const pool = createPool({ url, schema: config.DATABASE_SCHEMA, max: 2, applicationName: 'lti-command' });
  try {
    const registrations = registrationUseCases(registrationsRepository(pool), {
      allowLoopback: config.LTI_ALLOW_LOOPBACK,
    });
    const dynamic = dynamicRegistrationUseCases(registrationLinksRepository(pool), {
      publicUrl: config.PUBLIC_URL,
      linkTtlSeconds: config.LTI_REGISTRATION_LINK_TTL_SECONDS,
      allowLoopback: config.LTI_ALLOW_LOOPBACK,
      timeoutMs: config.LTI_REGISTRATION_TIMEOUT_MS,
    });
    if (action === 'list') {
      const found = await registrations.list(district);
      out.log(
        `District ${district}: ${found.length === 0 ? 'no LTI registrations' : `${found.length} LTI registration(s)`}`,
      );
      for (const r of found) describe(r, out);
      out.log('Give the platform:');
      out.log(`  login URL       ${dynamic.tool.loginUrl}`);
      out.log(`  redirect URL    ${dynamic.tool.launchUrl}`);
      out.log(`  tool JWKS URL   ${dynamic.tool.jwksUrl}`);
    } else if (action === 'add') {
      const created = await registrations.create(district, input!);
      out.log(`Registered the platform for district ${district}.`);
      describe(created, out);
    } else if (action === 'remove') {
      await registrations.remove(district, registration!);
      out.log(`Removed registration ${registration} of district ${district}.`);
    } else {
      const link = await dynamic.createLink(district);
      out.log(`Dynamic registration link for district ${district} (used once, until ${link.expiresAt}):`);
      out.log(link.url);
    }
    return 0;
  } catch (err) {
    out.error(`lti: ${err instanceof AppError ? explain(err) : err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await pool.end().catch(() => {});
  }
}
