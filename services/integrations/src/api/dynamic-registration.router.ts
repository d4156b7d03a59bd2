// LTI Dynamic Registration (docs/adr/014-lti.md): GET /api/lti/register, opened by the platform
// (in a window or an iframe of its admin page) with `openid_configuration` and
// `registration_token`; and POST /api/integrations/lti/registration-links, where a district's admin
// makes the one-time link to give their LMS's admin.
import { AppError, ApiRouter } from '@checkpoint/service-kit';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { DynamicRegistrationUseCases } from '../domain/dynamic-registration.use-case.ts';
import { registerQuery, registrationLinkSchema } from './dynamic-registration.schemas.ts';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Section 3.7 of the spec: the page tells the platform the registration is over. */
const CLOSE_SCRIPT =
  "(window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');" +
  "document.getElementById('close').addEventListener('click', function () { (window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*'); });";
const CLOSE_SCRIPT_HASH = `sha256-${createHash('sha256').update(CLOSE_SCRIPT).digest('base64')}`;

function page(title: string, paragraphs: string[], close: boolean): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} — Checkpoint</title></head><body><main><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}${close ? `<button type="button" id="close">Close</button><script>${CLOSE_SCRIPT}</script>` : ''}</main></body></html>`;
}

/**
 * The platform's admin page shows this one, often in an iframe (Canvas requires it) whose parent
 * may be on another host than the platform's configuration (a school's own domain): any https
 * page may frame it (and the configuration's origin, for a loopback platform in tests). It holds
 * nothing to steal and one Close button; nothing but its own hashed script runs.
 */
function send(res: Response, status: number, html: string, frameOrigin: string | undefined, script: boolean): void {
  const ancestors = ['https:', ...(frameOrigin && !frameOrigin.startsWith('https:') ? [frameOrigin] : [])];
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${script ? `'${CLOSE_SCRIPT_HASH}'` : "'none'"}; base-uri 'none'; form-action 'none'; frame-ancestors ${ancestors.join(' ')}`,
  );
  // The platform opens this page in a window of its own and the close message goes to
  // `window.opener`: the gateway's Cross-Origin-Opener-Policy (same-origin) would sever it.
  res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
  // The gateway's X-Frame-Options (SAMEORIGIN): removed where the gateway hands the answer on in
  // process; behind its proxy it stays, and browsers follow frame-ancestors over it.
  res.removeHeader('X-Frame-Options');
  res.status(status).type('html').send(html);
}

function originOf(raw: unknown): string | undefined {
  try {
    const origin = new URL(String(raw)).origin;
    return /^https?:\/\//.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

export function dynamicRegistrationRouter(uc: DynamicRegistrationUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/lti/register',
        summary:
          "LTI Dynamic Registration: reads the platform's configuration, registers the tool with it and stores the registration for the link's district",
        access: 'public',
        query: registerQuery,
        produces: ['text/html'],
        errors: [409],
      },
      async ({ req, res, query }) => {
        const frame = originOf(query.openid_configuration);
        try {
          const r = await uc.register(query);
          send(
            res,
            200,
            page(
              'Checkpoint is registered',
              [
                `Checkpoint is now registered with ${r.platform ? `${r.platform} at ` : ''}${r.issuer}: client id ${r.clientId}${r.deploymentIds.length > 0 ? `, deployment ${r.deploymentIds.join(', ')}` : ''}.`,
                r.deploymentIds.length > 0
                  ? "Your district's teachers can add Checkpoint to their courses once the tool is enabled in the LMS."
                  : "The LMS named no deployment yet: once the tool is installed there, your district's admin adds the deployment id the LMS shows in Checkpoint's Admin → Integrations; until then no launch is accepted.",
              ],
              true,
            ),
            frame,
            true,
          );
        } catch (err) {
          if (!(err instanceof AppError) || wantsJson(req)) throw err;
          const what = Object.entries(err.fields ?? {}).map(([field, why]) => `${field}: ${why}`);
          send(
            res,
            err.status,
            page(
              'Checkpoint could not be registered',
              [
                err.message,
                ...(what.length > 0 ? [`What failed: ${what.join('; ')}.`] : []),
                'Nothing was stored in Checkpoint. Fix the cause, then start the registration again with a new link from Admin → Integrations.',
              ],
              false,
            ),
            frame,
            false,
          );
        }
      },
    )
    .add(
      {
        method: 'post',
        path: '/api/integrations/lti/registration-links',
        summary: "Make a one-time LTI Dynamic Registration link for the district's LMS admin (the URL is shown once)",
        access: ['admin'],
        status: 201,
        response: registrationLinkSchema,
      },
      ({ caller }) => uc.createLink(caller.tenantId),
    );
}

/**
 * A browser (it asks for text/html) gets the page; any other caller (a script, the API's tests, one
 * that names no type) the house's JSON error, as the API document says.
 */
const wantsJson = (req: Request) => req.accepts(['json', 'html']) === 'json';
