// LTI Deep Linking (docs/adr/014-lti.md, "Deep linking"): the signed-in teacher's pending request
// and their assessments (GET), their pick (POST: the response signed and kept), and the page that
// posts it to the platform's return URL (GET, once) — an auto-submitting form of `JWT`.
import { createHash } from 'node:crypto';
import { ApiRouter } from '@checkpoint/service-kit';
import type { Response } from 'express';
import type { DeepLinkingUseCases } from '../domain/deep-linking.use-case.ts';
import {
  deepLinkAnswerSchema,
  deepLinkChoiceBody,
  deepLinkParams,
  deepLinkRequestSchema,
} from './deep-linking.schemas.ts';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const SUBMIT_SCRIPT = "document.getElementById('deep-link-response').submit();";
const SUBMIT_SCRIPT_HASH = `sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}`;

/**
 * The auto-submitting form: the gateway's CSP allows forms to this origin only, so this answer
 * carries its own (it wins over the gateway's in both run modes): its one hashed script, and forms
 * to the platform's return URL's origin only.
 */
function sendForm(res: Response, returnUrl: string, jwt: string): void {
  const origin = new URL(returnUrl).origin;
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; script-src '${SUBMIT_SCRIPT_HASH}'; base-uri 'none'; form-action ${origin}; frame-ancestors 'self'`,
  );
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res
    .status(200)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Returning to your LMS — Checkpoint</title></head><body><main><h1>Returning to your LMS…</h1><form id="deep-link-response" method="post" action="${escape(returnUrl)}"><input type="hidden" name="JWT" value="${escape(jwt)}"><button type="submit">Continue to your LMS</button></form><script>${SUBMIT_SCRIPT}</script></main></body></html>`,
    );
}

export function deepLinkingRouter(uc: DeepLinkingUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/lti/deep-linking/:id',
        summary:
          "A pending LTI deep-linking request of the signed-in teacher, and the teacher's assessments to pick from",
        access: ['teacher'],
        params: deepLinkParams,
        response: deepLinkRequestSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.view(caller, params.id),
    )
    .add(
      {
        method: 'post',
        path: '/api/lti/deep-linking/:id/response',
        summary:
          'Pick one of your assessments for the LMS: the LtiDeepLinkingResponse is signed with the tool’s key and kept for the form page',
        access: ['teacher'],
        params: deepLinkParams,
        body: deepLinkChoiceBody,
        response: deepLinkAnswerSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.answer(caller, params.id, body.assessmentId),
    )
    .add(
      {
        method: 'get',
        path: '/api/lti/deep-linking/:id/form',
        summary:
          "The page posting the signed LtiDeepLinkingResponse (form field JWT) to the platform's return URL; served once",
        access: ['teacher'],
        params: deepLinkParams,
        produces: ['text/html'],
        errors: [404],
      },
      async ({ caller, params, res }) => {
        const { returnUrl, jwt } = await uc.form(caller, params.id);
        sendForm(res, returnUrl, jwt);
      },
    );
}
