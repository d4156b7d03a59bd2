// A real OpenID provider on 127.0.0.1 (npm oidc-provider), for sign-in tests: one client, the
// person who signs in next (`next`), extra ID-token claims (hd, tid, xms_edov), signing keys that
// rotate, a hook that re-signs a changed ID token, and either an automatic "log in and consent"
// or the provider's own HTML pages (for the browser test). Several can run at once.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

export interface LocalAccount {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  email_verified?: boolean;
  /** Extra ID-token claims: hd (Google), tid and xms_edov (Entra). */
  hd?: string;
  tid?: string;
  xms_edov?: boolean;
}

export interface LocalProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who signs in next (the automatic interaction logs in as them). */
  next: LocalAccount;
  /** Changes the ID token's claims after the provider issued it (re-signed with its current key). */
  tamper: ((claims: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Signs with a key that is not published (a forgery). */
  forge: boolean;
  /** Replaces the signing key: the old one disappears from the key set at once. */
  rotateKeys(): Promise<void>;
  /** The key ids published now. */
  kids(): string[];
  stop(): Promise<void>;
}

export interface LocalProviderOptions {
  redirectUri: string;
  clientId?: string;
  clientSecret?: string;
  /** The issuer's path, e.g. `/<tid>/v2.0` to look like an Entra directory. */
  path?: string;
  /** true: log in and consent at once as `next`; false: the provider's own login and consent pages. */
  autoLogin?: boolean;
}

async function newKey(): Promise<{ jwk: JWK; privateKey: CryptoKey; kid: string }> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `k-${randomUUID().slice(0, 8)}`;
  return { jwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }, privateKey, kid };
}

export function account(domain = 'example.com', overrides: Partial<LocalAccount> = {}): LocalAccount {
  const n = Math.random().toString(36).slice(2, 10);
  return {
    sub: `sub-${n}`,
    email: `g.${n}@${domain}`,
    given_name: 'Grace',
    family_name: 'Hopper',
    email_verified: true,
    ...overrides,
  };
}

export async function startLocalProvider(options: LocalProviderOptions): Promise<LocalProvider> {
  const clientId = options.clientId ?? 'checkpoint';
  const clientSecret = options.clientSecret ?? `secret-${randomUUID()}`;
  const prefix = (options.path ?? '').replace(/\/+$/, '');
  const accounts = new Map<string, LocalAccount>();
  let key = await newKey();
  let provider: InstanceType<typeof Provider>;
  let callback: (req: IncomingMessage, res: ServerResponse) => void;

  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (prefix && !url.startsWith(`${prefix}/`)) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    // Mounted under the issuer's path: the provider sees its own paths, and originalUrl the full one.
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    req.url = url.slice(prefix.length) || '/';
    if (req.url.startsWith('/interaction/') && local.autoLogin) {
      void autoInteraction(req, res);
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}${prefix}`;

  const local: LocalProvider & { autoLogin: boolean } = {
    issuer,
    clientId,
    clientSecret,
    next: account(),
    tamper: undefined,
    forge: false,
    autoLogin: options.autoLogin ?? true,
    async rotateKeys() {
      key = await newKey();
      build();
    },
    kids: () => [key.kid],
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };

  function build() {
    const p = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [options.redirectUri],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      jwks: { keys: [key.jwk] },
      cookies: { keys: [`cookie-${randomUUID()}`] },
      ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
      claims: {
        openid: ['sub', 'hd', 'tid', 'xms_edov'],
        email: ['email', 'email_verified'],
        profile: ['given_name', 'family_name', 'name'],
      },
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: !local.autoLogin } },
      ...(local.autoLogin
        ? {
            interactions: {
              url: (_ctx: unknown, interaction: { uid: string }) => `${prefix}/interaction/${interaction.uid}`,
            },
          }
        : {}),
      // The dev login page takes any login name: it is the account's sub; the claims are the ones set for it.
      findAccount: (_ctx: unknown, id: string) => {
        const who = accounts.get(id) ?? (local.next.sub === id || !local.autoLogin ? local.next : undefined);
        if (!who) return undefined;
        return {
          accountId: id,
          claims: () => ({ ...who, sub: id, name: `${who.given_name} ${who.family_name}` }),
        };
      },
    });
    p.proxy = false;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- koa context of oidc-provider
    p.use(async (ctx: any, next: () => Promise<void>) => {
      await next();
      if (ctx.path === '/token' && ctx.body?.id_token && (local.tamper || local.forge)) {
        const claims = (local.tamper ?? ((c) => c))(decodeJwt(ctx.body.id_token) as Record<string, unknown>);
        const signer = local.forge ? await newKey() : key;
        ctx.body = {
          ...ctx.body,
          id_token: await new SignJWT(claims)
            .setProtectedHeader({ alg: 'RS256', kid: local.forge ? key.kid : signer.kid })
            .sign(signer.privateKey),
        };
      }
    });
    provider = p;
    callback = p.callback();
  }

  async function autoInteraction(req: IncomingMessage, res: ServerResponse) {
    try {
      const details = await provider.interactionDetails(req, res);
      const who = local.next;
      accounts.set(who.sub, who);
      const grant = new provider.Grant({ accountId: who.sub, clientId: details.params.client_id });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: who.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (err) {
      res.statusCode = 500;
      res.end(String(err));
    }
  }

  build();
  return local;
}
