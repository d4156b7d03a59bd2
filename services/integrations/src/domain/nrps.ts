// LTI Names and Role Provisioning Services 2.0: the launch claim, the scope and media type, and
// the paging of a membership container (docs/adr/014-lti.md).
import { checkOutboundUrl } from '@checkpoint/service-kit';

export const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
export const NRPS_SCOPE = 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly';
export const NRPS_MEDIA_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';

/** The membership URL of a launch's NRPS claim when it offers version 2.0 and the egress rules allow it; else undefined. */
export function membershipsUrlOf(claims: Record<string, unknown>, allowLoopback: boolean): string | undefined {
  const claim = claims[NRPS_CLAIM] as { context_memberships_url?: unknown; service_versions?: unknown } | undefined;
  const url = claim?.context_memberships_url;
  if (typeof url !== 'string' || url.length > 2000) return undefined;
  const versions = claim?.service_versions;
  if (!Array.isArray(versions) || !versions.includes('2.0')) return undefined;
  try {
    return checkOutboundUrl(url, { field: 'context_memberships_url', allowLoopback }).toString();
  } catch {
    return undefined;
  }
}

/** The `rel="next"` target of a Link header (RFC 8288), if any. */
export function nextLink(header: string | string[] | undefined): string | undefined {
  for (const value of Array.isArray(header) ? header : header ? [header] : []) {
    for (const part of value.split(/,(?=\s*<)/)) {
      const m = /^\s*<([^>]*)>(.*)$/.exec(part);
      if (m && /;\s*rel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/i.test(m[2]!)) return m[1]!;
    }
  }
  return undefined;
}
