// The LTI 1.3 tool's routes a platform and the browser call: GET /api/lti/jwks, GET|POST
// /api/lti/login (OIDC third-party login initiation) and POST /api/lti/launch (a form post of
// id_token and state). A refusal is a page naming what failed for a browser, JSON for others.
import { AppError, ApiRouter } from '@checkpoint/service-kit';
import type { Request, Response } from 'express';
import {
  bindingCookieName,
  type Landing,
  type LoginInput,
  type LtiUseCases,
  type VerifiedLaunch,
} from '../domain/lti.use-case.ts';
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

/**
 * The launch's answer inside the LMS (usually its iframe, where third-party cookies are blocked):
 * the session cannot be opened there, so the page offers Checkpoint in a new window, first-party,
 * through the one-time sign-in (which sets the session cookies and lands on the class or dashboard).
 */
function landingPage(l: VerifiedLaunch, landing: Landing): string {
  const course = l.contextTitle ?? l.contextId;
  const lines = [
    `Signed in to Checkpoint as ${landing.firstName} (${landing.role}).`,
    landing.classCreated
      ? `The class “${course}” was created in Checkpoint for this course; you are its teacher.`
      : landing.classId && course
        ? `This course is linked to its Checkpoint class.`
        : landing.waitingForInstructor
          ? 'Your teacher has not opened Checkpoint from this course yet: its class will appear on your dashboard once they have.'
          : '',
    'The link below works once and for two minutes; launch again from the LMS if it has expired.',
  ].filter(Boolean);
  const href = escape(landing.handoffUrl);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Checkpoint</title></head><body><main><h1>Checkpoint</h1>${lines
    .map((p) => `<p>${escape(p)}</p>`)
    .join(
      '',
    )}<p><a id="open-checkpoint" href="${href}" target="_blank" rel="noopener noreferrer">Open Checkpoint</a></p></main></body></html>`;
}

/** The cookies of a request (only ours are read: the login's browser binding). */
function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The binding cookie: SameSite=None (it must come back with the LMS's cross-site form post), on /api/lti only. */
const BINDING_COOKIE = { httpOnly: true, secure: true, sameSite: 'none', path: '/api/lti' } as const;

export function ltiRouter(uc: LtiUseCases, keys: ToolKeyRing, options: { stateTtlSeconds: number }): ApiRouter {
  const login = async (req: Request, res: Response, input: LoginInput) =>
    pageOnRefusal(req, res, 'The LTI login could not start', async () => {
      const { url, binding } = await uc.login(input);
      // Kept where the browser allows it (third-party cookies, or the LMS opening the tool in a window).
      res.cookie(binding.name, binding.value, { ...BINDING_COOKIE, maxAge: options.stateTtlSeconds * 1000 });
      res.redirect(302, url);
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
        summary:
          "LTI 1.3 resource-link launch: the platform's id_token (form post) verified and recorded, the LMS user signed in (a one-time sign-in link to open Checkpoint) and the course linked to its class",
        access: 'public',
        body: launchInput,
        produces: ['text/html'],
        errors: [401, 403, 503],
      },
      ({ req, res, body }) =>
        pageOnRefusal(req, res, 'The LTI launch was refused', async () => {
          const name = bindingCookieName(body.state);
          const launch = await uc.launch({ ...body, binding: cookieValue(req, name) });
          res.clearCookie(name, BINDING_COOKIE);
          const landing = await uc.land(launch);
          res.setHeader('Referrer-Policy', 'no-referrer');
          // A launch in a window of its own is first-party: straight to the one-time sign-in.
          if (landing.ownWindow) res.redirect(303, landing.handoffUrl);
          else res.status(200).type('html').send(landingPage(launch, landing));
        }),
    );
}
