// The rules of a district's SSO connection that need no database: the kind an issuer implies and
// which issuers are refused.
import { isLoopbackHost, ValidationError } from '@checkpoint/service-kit';
import type { SsoKind } from '../data-access/oidc.repository.ts';

export const GOOGLE_ISSUER_URL = 'https://accounts.google.com';
const ENTRA = /^https:\/\/login\.microsoftonline\.com\/([^/]+)\/v2\.0\/?$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Entra's multi-directory issuers: anyone's directory would sign in. */
const ENTRA_SHARED = ['common', 'organizations', 'consumers'];

/** Where a connection's sealed secret lives (the additional data of its AES-GCM seal). */
export function connectionSecretContext(connectionId: string): string {
  return `sso_connections.client_secret:${connectionId}`;
}

/** Issuers compare as given, but a trailing slash does not make another issuer. */
export function sameIssuer(a: unknown, b: string): boolean {
  return typeof a === 'string' && a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}

/**
 * The directory (tenant) id of an Entra connection's issuer (`…/<directory id>/v2.0`), lower-case.
 * Read from the path alone: the kind `entra` is only ever derived from login.microsoftonline.com,
 * and a local provider with such a path can stand in for it in tests.
 */
export function entraTenantOf(issuer: string): string | undefined {
  let path: string;
  try {
    path = new URL(issuer).pathname;
  } catch {
    return undefined;
  }
  const m = /^\/([^/]+)\/v2\.0\/?$/.exec(path);
  return m && GUID.test(m[1]!) ? m[1]!.toLowerCase() : undefined;
}

/**
 * The kind an issuer implies; 400 naming `issuer` for one that cannot be a district's own:
 * not https (except a provider on this machine), or Entra's shared issuers.
 */
export function kindOfIssuer(issuer: string): SsoKind {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ValidationError('The issuer must be a URL', {
      issuer: 'Must be a URL, e.g. https://accounts.google.com',
    });
  }
  const local = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !local) {
    throw new ValidationError('The issuer must be an https URL', { issuer: 'Must start with https://' });
  }
  if (url.search || url.hash) {
    throw new ValidationError('The issuer has no query or fragment', { issuer: 'Remove the part after ? or #' });
  }
  if (sameIssuer(issuer, GOOGLE_ISSUER_URL)) return 'google';
  const entra = ENTRA.exec(issuer);
  if (url.hostname === 'login.microsoftonline.com' || entra) {
    const segment = entra?.[1]?.toLowerCase();
    if (segment && ENTRA_SHARED.includes(segment)) {
      throw new ValidationError(`Microsoft Entra's "${segment}" issuer admits any organization's accounts`, {
        issuer: "Use your directory's own issuer: https://login.microsoftonline.com/<directory (tenant) id>/v2.0",
      });
    }
    if (!segment || !GUID.test(segment)) {
      throw new ValidationError('Not a Microsoft Entra v2.0 issuer', {
        issuer: 'Use https://login.microsoftonline.com/<directory (tenant) id>/v2.0',
      });
    }
    return 'entra';
  }
  return 'generic';
}
