// The LTI 1.3 tool's routes a platform and the browser call: GET /api/lti/jwks, GET|POST
// /api/lti/login (OIDC third-party login initiation) and POST /api/lti/launch (a form post of
// id_token and state). A refusal is a page naming what failed for a browser, JSON for others.
import { createHash } from 'node:crypto';
import { AppError, ApiRouter } from '@checkpoint/service-kit';
import type { Request, Response } from 'express';
import {
  bindingCookieName,
  type DeepLinkLanding,
  type DeepLinkStart,
  type Landing,
  type LoginInput,
  type LtiUseCases,
  type PlatformStorage,
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
    landing.notice ?? '',
    'The link below works once and for two minutes; launch again from the LMS if it has expired.',
  ].filter(Boolean);
  const href = escape(landing.handoffUrl);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Checkpoint</title></head><body><main><h1>Checkpoint</h1>${lines
    .map((p) => `<p>${escape(p)}</p>`)
    .join(
      '',
    )}<p><a id="open-checkpoint" href="${href}" target="_blank" rel="noopener noreferrer">Open Checkpoint</a></p></main></body></html>`;
}

/** A deep-linking launch's answer: the teacher picks the assessment in Checkpoint (a new window, as `landingPage`). */
function deepLinkPage(landing: DeepLinkLanding): string {
  const lines = [
    `Signed in to Checkpoint as ${landing.firstName} (teacher).`,
    'Open Checkpoint to choose the assessment to add to this course; Checkpoint then sends it back to your LMS.',
    'The link below works once and for two minutes; launch again from the LMS if it has expired.',
  ];
  const href = escape(landing.handoffUrl);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Checkpoint</title></head><body><main><h1>Add a Checkpoint assessment</h1>${lines
    .map((p) => `<p>${escape(p)}</p>`)
    .join(
      '',
    )}<p><a id="open-checkpoint" href="${href}" target="_blank" rel="noopener noreferrer">Open Checkpoint</a></p></main></body></html>`;
}

/**
 * LTI client-side postMessage storage (1EdTech, "OIDC Login with LTI Client Side postMessages"):
 * where the platform offers it (`lti_storage_target`), the login keeps its browser binding in the
 * platform's storage frame (`lti.put_data`) before it goes on to the platform, and a launch that
 * comes without the binding cookie (third-party cookies blocked in the LMS's iframe) reads it back
 * (`lti.get_data`) and posts the launch again with it. Messages go to, and answers are taken only
 * from, the platform's origin (its authorization endpoint's), matched by message id. The page's
 * data sits in attributes of `#lti-storage`; this one script, allowed by its hash, is all that runs.
 */
const STORAGE_SCRIPT = `(function () {
  var d = document.getElementById('lti-storage').dataset;
  var put = d.op === 'lti.put_data';
  var id = 'cp-' + Math.random().toString(36).slice(2);
  var over = false;
  function end(failed) {
    if (over) return;
    over = true;
    if (put) return window.location.replace(d.next);
    document.getElementById('status').textContent = d.failed;
  }
  var frame;
  try { frame = d.target === '_parent' ? window.parent : window.parent.frames[d.target]; } catch (e) { frame = undefined; }
  if (!frame || frame === window) return end(true);
  window.addEventListener('message', function (e) {
    var m = e.data;
    if (over || e.origin !== d.origin || !m || typeof m !== 'object' || m.message_id !== id || m.subject !== d.op + '.response') return;
    if (m.error || (!put && (typeof m.value !== 'string' || m.value === ''))) return end(true);
    if (put) return end(false);
    over = true;
    document.getElementById('binding').value = m.value;
    document.getElementById('launch').submit();
  });
  var message = { subject: d.op, message_id: id, key: d.key };
  if (put) message.value = d.value;
  frame.postMessage(message, d.origin);
  setTimeout(function () { end(true); }, 10000);
})();`;
const STORAGE_SCRIPT_HASH = `sha256-${createHash('sha256').update(STORAGE_SCRIPT).digest('base64')}`;

/**
 * The headers of a page shown inside the LMS (its iframe, whose origin is not known beforehand:
 * Canvas's cloud issuer serves every school's own host): framable by any https page, and by the
 * platform's own origin where it is plain http (loopback platforms, LTI_ALLOW_LOOPBACK); nothing
 * runs but `script` (allowed by its hash), forms go only to this tool. In process the gateway's
 * X-Frame-Options is removed; behind its proxy browsers follow frame-ancestors over it.
 */
function framableByLms(res: Response, platformOrigin: string, script?: string): void {
  const ancestors = ['https:', ...(platformOrigin.startsWith('https:') ? [] : [platformOrigin])];
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; script-src ${script ? `'${script}'` : "'none'"}; base-uri 'none'; form-action 'self'; frame-ancestors ${ancestors.join(' ')}`,
  );
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.removeHeader('X-Frame-Options');
}

/** A page of the storage exchange, inside the LMS's iframe (its data in `#lti-storage`'s attributes). */
function sendStoragePage(res: Response, storage: PlatformStorage, data: Record<string, string>, body: string): void {
  framableByLms(res, storage.origin, STORAGE_SCRIPT_HASH);
  const attributes = Object.entries({ target: storage.target, origin: storage.origin, key: storage.key, ...data })
    .map(([k, v]) => ` data-${k}="${escape(v)}"`)
    .join('');
  res
    .status(200)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>Checkpoint</title></head><body><main><h1>Checkpoint</h1>${body}<div id="lti-storage" hidden${attributes}></div><noscript><p>Launching Checkpoint from the LMS needs JavaScript.</p></noscript><script>${STORAGE_SCRIPT}</script></main></body></html>`,
    );
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

export function ltiRouter(
  uc: LtiUseCases,
  keys: ToolKeyRing,
  options: {
    stateTtlSeconds: number;
    /** Runs after a launch landed (not awaited: the NRPS roster sync, in the background). */
    afterLanding?: (launch: VerifiedLaunch, landing: Landing) => unknown;
    /** Keeps a verified deep-linking request server-side; its id (deep-linking use cases). */
    keepDeepLink: (start: DeepLinkStart) => Promise<string>;
  },
): ApiRouter {
  const login = async (req: Request, res: Response, input: LoginInput) =>
    pageOnRefusal(req, res, 'The LTI login could not start', async () => {
      const { url, binding, storage } = await uc.login(input);
      // Kept where the browser allows it (third-party cookies, or the LMS opening the tool in a window).
      res.cookie(binding.name, binding.value, { ...BINDING_COOKIE, maxAge: options.stateTtlSeconds * 1000 });
      if (!storage) return res.redirect(302, url);
      // And in the platform's storage where it offers one; then on to the platform as the redirect would.
      sendStoragePage(
        res,
        storage,
        { op: 'lti.put_data', value: binding.value, next: url },
        '<p id="status" role="status">Starting Checkpoint…</p>',
      );
    });
  const loginSpec = {
    path: '/api/lti/login',
    summary:
      'LTI 1.3 OIDC third-party login initiation: redirects to the platform with a state and a nonce (with lti_storage_target: a page that keeps the browser binding in the platform’s storage first, then goes there)',
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
          "LTI 1.3 resource-link launch (or deep-linking request, teachers only): the platform's id_token (form post) verified and recorded, the LMS user signed in (a one-time sign-in link to open Checkpoint) and the course linked to its class",
        access: 'public',
        body: launchInput,
        produces: ['text/html'],
        errors: [401, 403, 503],
      },
      ({ req, res, body }) =>
        pageOnRefusal(req, res, 'The LTI launch was refused', async () => {
          const name = bindingCookieName(body.state);
          const binding = cookieValue(req, name) ?? body.binding;
          // No cookie came back, and the login kept the binding in the platform's storage: this
          // page reads it from there and posts the launch again with it (the state is not taken yet).
          const storage = binding === undefined ? await uc.storageOf(body.state) : undefined;
          if (storage)
            return sendStoragePage(
              res,
              storage,
              {
                op: 'lti.get_data',
                failed:
                  'Checkpoint could not check that this browser started the launch (the LMS did not answer). Start it again from the LMS.',
              },
              `<p id="status" role="status">Opening Checkpoint…</p><form id="launch" method="post" action="launch"><input type="hidden" name="id_token" value="${escape(body.id_token)}"><input type="hidden" name="state" value="${escape(body.state)}"><input type="hidden" name="binding" id="binding"></form>`,
            );
          const launch = await uc.launch({ ...body, binding });
          res.clearCookie(name, BINDING_COOKIE);
          if (launch.messageType === 'LtiDeepLinkingRequest') {
            const dl = await uc.landDeepLinking(launch, options.keepDeepLink);
            framableByLms(res, launch.platformOrigin);
            if (dl.ownWindow) res.redirect(303, dl.handoffUrl);
            else res.status(200).type('html').send(deepLinkPage(dl));
            return;
          }
          const landing = await uc.land(launch);
          options.afterLanding?.(launch, landing);
          framableByLms(res, launch.platformOrigin);
          // A launch in a window of its own is first-party: straight to the one-time sign-in (unless
          // the page has something to say first).
          if (landing.ownWindow && landing.notice === undefined) res.redirect(303, landing.handoffUrl);
          else res.status(200).type('html').send(landingPage(launch, landing));
        }),
    );
}
