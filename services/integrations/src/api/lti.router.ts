// The LTI 1.3 tool's routes a platform and the browser call: GET /api/lti/jwks, GET|POST
// /api/lti/login (OIDC third-party login initiation) and POST /api/lti/launch (a form post of
// id_token and state). A refusal is a page naming what failed for a browser, JSON for others.
import { AppError, ApiRouter } from '@checkpoint/service-kit';
import type { Request, Response } from 'express';
import type { LoginInput, LtiUseCases, VerifiedLaunch } from '../domain/lti.use-case.ts';
import type { ToolKeyRing } from '../domain/tool-keys.ts';
import { launchInput, loginInput } from './lti.schemas.ts';
import { jwksSchema } from './registrations.schemas.ts';

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, paragraphs: string[]): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)} — Checkpoint</title></head><body><main><h1>${escape(title)}</h1>${paragraphs.map((p) => `<p>${escape(p)}</p>`).join('')}</main></body></html>`;
}

/** Answers an AppError as a page for a browser (Accept: text/html first), else leaves it to the error middleware. */
async function pageOnRefusal(req: Request, res: Response, title: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (err) {
    if (!(err instanceof AppError) || req.accepts(['json', 'html']) !== 'html') throw err;
    const what = Object.keys(err.fields ?? {});
    res
      .status(err.status)
      .type('html')
      .send(
        page(title, [
          err.message,
          ...(what.length > 0 ? [`What failed: ${what.join(', ')}.`] : []),
          'Start again from your LMS; if it keeps failing, your district’s admin can check the LTI registration in Checkpoint.',
        ]),
      );
  }
}

function launchPage(l: VerifiedLaunch): string {
  return page('LTI launch verified', [
    `The launch from ${l.issuer} (deployment ${l.deploymentId}) was verified and recorded.`,
    `LMS user ${l.lmsUserId}, roles: ${l.roles.join(', ') || 'none'}.`,
    l.contextTitle || l.contextId ? `Course: ${l.contextTitle ?? l.contextId}.` : 'No course was named.',
    'Signing in to Checkpoint from the LMS is not available yet: the LMS user is not mapped to a Checkpoint account and no session is opened. Sign in to Checkpoint directly for now.',
  ]);
}

export function ltiRouter(uc: LtiUseCases, keys: ToolKeyRing): ApiRouter {
  const login = async (req: Request, res: Response, input: LoginInput) =>
    pageOnRefusal(req, res, 'The LTI login could not start', async () => {
      res.redirect(302, await uc.login(input));
    });
  const loginSpec = {
    path: '/api/lti/login',
    summary: 'LTI 1.3 OIDC third-party login initiation: redirects to the platform with a state and a nonce',
    access: 'public',
    status: 302,
  } as const;
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/lti/jwks',
        summary: "The LTI tool's public keys (JWK Set)",
        access: 'public',
        response: jwksSchema,
      },
      () => keys.jwks(),
    )
    .add({ ...loginSpec, method: 'get', query: loginInput }, ({ req, res, query }) => login(req, res, query))
    .add({ ...loginSpec, method: 'post', body: loginInput }, ({ req, res, body }) => login(req, res, body))
    .add(
      {
        method: 'post',
        path: '/api/lti/launch',
        summary: "LTI 1.3 resource-link launch: the platform's id_token (form post) verified and recorded",
        access: 'public',
        body: launchInput,
        produces: ['text/html'],
        errors: [401],
      },
      ({ req, res, body }) =>
        pageOnRefusal(req, res, 'The LTI launch was refused', async () => {
          const launch = await uc.launch(body);
          res.status(200).type('html').send(launchPage(launch));
        }),
    );
}
