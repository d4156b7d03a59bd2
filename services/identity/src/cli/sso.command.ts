// `npm run sso -- show|set|remove|password-sign-in --district <domain> …`: a district's SSO
// connection, set by the operator (for when the district has no admin yet), with the same checks
// as the admin API (issuer kind, the district's own domains, discovery). Database as make-admin:
// DATABASE_URL, else the embedded Postgres of DATA_DIR; SECRETS_KEY, else DATA_DIR/secrets-key.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { AppError, ConfigError, createPool, parseConfig } from '@checkpoint/service-kit';
import { oidcRepository } from '../data-access/oidc.repository.ts';
import { createPrisma } from '../data-access/prisma.ts';
import { decodeSecretsKey, secretBox } from '../domain/secret-box.ts';
import {
  getSsoSettings,
  removeSsoConnection,
  saveSsoConnection,
  setPasswordSignIn,
  type SsoSettingsView,
} from '../domain/sso.use-case.ts';
import { embeddedDatabaseUrl, makeAdminConfigSchema, type CommandOutput } from './make-admin.command.ts';
import { dataDirSecretsKey } from './secrets-key-file.ts';

export const SSO_USAGE = `Usage:
  npm run sso -- show --district <domain>
  npm run sso -- set --district <domain> --issuer <url> --client-id <id> [--client-secret <secret>]
                     [--domains <d1,d2>] [--name <button text>] [--disabled]
  npm run sso -- remove --district <domain>
  npm run sso -- password-sign-in on|off --district <domain>
<domain>: one of the district's email domains. The secret may come from SSO_CLIENT_SECRET instead
(kept out of the shell history); omitted: the stored one stays (same issuer and client id).`;

const configSchema = makeAdminConfigSchema.extend({
  SECRETS_KEY: z.string().optional(),
  SECRETS_KEY_PREVIOUS: z.string().optional(),
  SSO_CLIENT_SECRET: z.string().optional(),
  PUBLIC_URL: z
    .string()
    .default('http://localhost:8080')
    .transform((v) => v.replace(/\/+$/, '')),
});

function describe(view: SsoSettingsView, out: CommandOutput): void {
  const c = view.connection;
  out.log(`Password sign-in: ${view.passwordSignIn ? 'on' : 'off'}`);
  out.log(`District domains: ${view.districtDomains.join(', ') || '(none)'}`);
  if (!c) {
    out.log('SSO connection: none');
    return;
  }
  out.log(`SSO connection ${c.id} (${c.enabled ? 'enabled' : 'disabled'}):`);
  out.log(`  issuer          ${c.issuer} (${c.kind})`);
  out.log(`  client id       ${c.clientId}`);
  out.log(`  client secret   ${c.hasSecret ? 'stored (encrypted)' : 'none'}`);
  out.log(`  email domains   ${c.emailDomains.join(', ')}`);
  out.log(`  button          Continue with ${c.displayName}`);
  out.log(`  redirect URI    ${view.redirectUri}   (register this at the provider)`);
  out.log(`  initiate login  ${c.initiateLoginUri}`);
}

/** Runs the command; resolves to the process exit code (0 done, 1 refused or failed). */
export async function runSsoCommand(
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
        issuer: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        domains: { type: 'string' },
        name: { type: 'string' },
        disabled: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    out.error(`sso: ${(err as Error).message}\n${SSO_USAGE}`);
    return 1;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.log(SSO_USAGE);
    return 0;
  }
  const [action, onOff] = positionals;
  const known = ['show', 'set', 'remove', 'password-sign-in'];
  if (!action || !known.includes(action) || !values.district) {
    out.error(SSO_USAGE);
    return 1;
  }
  if (action === 'password-sign-in' && onOff !== 'on' && onOff !== 'off') {
    out.error(`sso: password-sign-in takes on or off\n${SSO_USAGE}`);
    return 1;
  }
  if (action === 'set' && (!values.issuer || !values['client-id'])) {
    out.error(`sso: set needs --issuer and --client-id\n${SSO_USAGE}`);
    return 1;
  }
  let config: z.infer<typeof configSchema>;
  try {
    config = parseConfig(configSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out.error(`sso: ${err.message}`);
    return 1;
  }
  const dataDir = path.resolve(config.DATA_DIR);
  const url = config.DATABASE_URL ?? (await embeddedDatabaseUrl(dataDir));
  if (!url) {
    out.error(
      `sso: no running Checkpoint database in ${config.DATA_DIR}/ (start the app with \`npm start\` first), and DATABASE_URL is not set.`,
    );
    return 1;
  }
  const keyText = config.SECRETS_KEY || (config.DATABASE_URL ? undefined : await dataDirSecretsKey(dataDir, false));
  const current = keyText ? decodeSecretsKey(keyText) : undefined;
  if (keyText && !current) {
    out.error('sso: SECRETS_KEY must be 32 bytes in base64');
    return 1;
  }
  const previous = config.SECRETS_KEY_PREVIOUS ? decodeSecretsKey(config.SECRETS_KEY_PREVIOUS) : undefined;
  const schema = config.DATABASE_SCHEMA;
  const pool = createPool({ url, schema, max: 2, applicationName: 'sso-command' });
  const db = createPrisma(pool, schema);
  try {
    const oidc = oidcRepository(db);
    const deps = { oidc, secrets: secretBox({ current, previous }), publicUrl: config.PUBLIC_URL };
    const domain = values.district.trim().toLowerCase().replace(/^@/, '');
    const tenant = await oidc.findTenantSignInByDomain(domain);
    if (!tenant) {
      out.error(`sso: no district or school owns the email domain ${domain}.`);
      return 1;
    }
    if (action === 'show') {
      out.log(`${tenant.name}:`);
      describe(await getSsoSettings(deps, tenant.id), out);
    } else if (action === 'set') {
      if (!current) {
        out.error(
          `sso: SECRETS_KEY is not set (nor kept in ${config.DATA_DIR}/secrets-key): give the identity service's key.`,
        );
        return 1;
      }
      const secret = values['client-secret'] ?? config.SSO_CLIENT_SECRET;
      const view = await saveSsoConnection(deps, tenant.id, {
        issuer: values.issuer!,
        clientId: values['client-id']!,
        clientSecret: secret,
        emailDomains: values.domains ? values.domains.split(',') : tenant.emailDomains,
        displayName: values.name,
        enabled: !values.disabled,
      });
      out.log(`Saved the SSO connection of ${tenant.name}.`);
      describe(view, out);
    } else if (action === 'remove') {
      const removed = await removeSsoConnection(deps, tenant.id);
      out.log(removed ? `Removed the SSO connection of ${tenant.name}.` : `${tenant.name} has no SSO connection.`);
    } else {
      const view = await setPasswordSignIn(deps, tenant.id, onOff === 'on');
      out.log(`Password sign-in of ${tenant.name} is now ${view.passwordSignIn ? 'on' : 'off'}.`);
    }
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      const fields = err.fields
        ? ` (${Object.entries(err.fields)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')})`
        : '';
      out.error(`sso: ${err.message}${fields}`);
      return 1;
    }
    out.error(`sso: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await db.$disconnect().catch(() => {});
    await pool.end().catch(() => {});
  }
}
