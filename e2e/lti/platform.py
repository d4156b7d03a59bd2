"""An LTI 1.3 platform (LMS) for the tests, made of the PyPI package lti1p3platform (MIT).

The package does the platform's part: its registration of the tool, its JWKS, the OIDC login
initiation URL (OIDCLoginAbstract.prepare_preflight_url) and, on the tool's authorization request,
the validation of that request and the signed id_token of a resource-link launch
(MessageLaunchAbstract.lti_launch), posted back by an auto-submitting form. This file only binds
it to an HTTP server on 127.0.0.1 (the package is framework-neutral) and lets a test ask for the
launches a platform should never send (signed by another key, expired, for another audience or
deployment), to see the tool refuse them.

Deep linking is the package's too: a deep-linking request (LTIAdvantageMessageLaunchAbstract.set_dl:
the deep_linking_settings claim, message type LtiDeepLinkingRequest, `data` the tool must echo) and
the check of the tool's answer (LTI1P3PlatformConfAbstract.validate_deeplinking_resp and
tool_validate_and_decode: the tool's signature against its JWKS, the message type, the content
item types). The binding adds what a platform checks beyond them (iss, aud, deployment id, data)
and keeps the content items it received, which a later resource-link launch can open (its custom
parameters), as an LMS does with the link a teacher added.

    python platform.py --tool-url https://checkpoint.test [--client-id ID] [--deployment-id ID]
                       [--tool-jwks-url URL]   (where the platform reads the tool's keys)

Names and Role Provisioning (NRPS 2.0): a launch started with `nrps=1` carries the package's NRPS
claim (LTIAdvantageMessageLaunchAbstract.set_nrps) naming the course's membership URL; the token
endpoint is the package's client-credentials grant (LTI1P3PlatformConfAbstract.get_access_token,
which checks the tool's JWT assertion against the tool's JWKS), and the membership endpoint checks
the bearer token with the package (validate_token) and the NRPS scope, then answers the course's
members (statuses of the package's membership.Status), paged with `Link: rel="next"`. The course's
roster is what the test enrols, as an LMS's admin would (PUT /contexts/{id}/members).

Prints one JSON line (its URL, issuer, client id, deployment id, JWKS, authorization and token
URLs), then serves until stdin closes or --max-seconds pass.

Endpoints:
    GET /jwks                    the platform's public keys
    GET /start?user=…&variant=…  a login initiation: 302 to the tool's login URL
    GET /authorize?…             the tool's OIDC authorization request: the launch form
    GET /course?…                an LMS course page: the tool in an iframe, launched with
                                 lti_storage_target, beside the platform's storage frame
    GET /storage[?broken=1]      that storage frame (LTI client-side postMessage storage)
    POST /token                  the OAuth 2 client-credentials grant (the tool's JWT assertion,
                                 checked against the tool's JWKS): LTI1P3PlatformConfAbstract.get_access_token
    PUT /tool-jwks               the tool's public keys pasted in (instead of reading its JWKS URL)
    PUT /contexts/{id}/members   the course's roster: {"members": [...], "page_size": n, "fail_page": n, "foreign_next": bool}
    GET /contexts/{id}/memberships?page=n   the membership container (bearer token, NRPS scope)
    POST /lineitems/<id>/lineitem/scores  the AGS score service: the bearer token checked
                                 (validate_token, score scope), the score kept (a score older than the
                                 last one of that user and line item: 409, the package's OLD_TIMESTAMP)
    GET /scores                  the scores received (for the test to read)
    POST /deep-link-return       the tool's LtiDeepLinkingResponse (form field JWT), verified
    GET /deep-links              the content items received so far (JSON), oldest first
A launch with `assessment=<id>` carries the AGS endpoint claim (the package's LtiAgs: the line item
/lineitems/<resource link>/lineitem) and the custom `checkpoint_assessment_id`.
/start also takes role (instructor, learner), context, context_title, message=deep_linking (a
deep-linking request; accept= the accepted types, comma-separated) and content_item=N (a launch
of the N-th content item received: its custom parameters, and the AGS claim of the line item the
LMS made from its lineItem).
Variants: ok, other_key (signed by a key the JWKS does not hold), expired, wrong_audience,
unknown_deployment (only in the id_token), login_unknown_deployment (in the login too).

lti1p3platform has no client-side postMessage storage (1EdTech's "OIDC Login with LTI Client Side
postMessages"): /course and /storage are the platform's page part of it, the least a platform
page does: keep each tool origin's values by key and answer lti.put_data and lti.get_data.
"""

from __future__ import annotations

import argparse
import html
import json
import secrets
import sys
import threading
import typing as t
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlparse

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context, Status
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.ags import LtiAgs
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request
from lti1p3platform.score import UPDATE_SCORE_STATUSCODE, UpdateScoreStatus

DEPLOYMENT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/deployment_id"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
NRPS_MEDIA_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
ROLES = {
    "instructor": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"],
    "learner": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
}


def key_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()
    public = (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return private, public


class Settings:
    def __init__(
        self, url: str, tool_url: str, client_id: str, deployment_id: str, tool_jwks_url: str | None = None
    ) -> None:
        self.url = url
        self.tool_url = tool_url.rstrip("/")
        # Where the platform reads the tool's public keys (the tool's JWKS, reached as the test can).
        self.tool_jwks_url = tool_jwks_url or f"{self.tool_url}/api/lti/jwks"
        # context id → its roster: {"members": [...], "page_size": n, "fail_page": n, "foreign_next": bool} (an LMS's enrolments).
        self.rosters: dict[str, dict[str, t.Any]] = {}
        # The tool's public keys pasted into the platform (as an LMS admin may, instead of a URL).
        self.tool_jwks: dict[str, t.Any] | None = None
        # Deep linking: the data sent with each request (echoed by the tool), the items received.
        self.dl_data: dict[str, dict[str, str]] = {}
        self.received: list[dict[str, t.Any]] = []
        self.client_id = client_id
        self.deployment_id = deployment_id
        self.private_key, self.public_key = key_pair()
        # A key of nobody's JWKS: what a forger would sign with.
        self.other_private_key, self.other_public_key = key_pair()
        # lti_message_hint → what the launch should be (a platform keeps this per pending launch).
        self.pending: dict[str, dict[str, str]] = {}
        # The AGS scores received, in order (what the LMS's gradebook would show).
        self.scores: list[dict[str, t.Any]] = []
        self.lock = threading.Lock()


class Platform(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, **kwargs: t.Any) -> None:
        s: Settings = kwargs["settings"]
        deployment_id = kwargs.get("deployment_id") or s.deployment_id
        self._registration = (
            Registration()
            .set_iss(s.url)
            .set_client_id(s.client_id)
            .set_deployment_id(deployment_id)
            .set_launch_url(f"{s.tool_url}/api/lti/launch")
            .set_deeplink_launch_url(f"{s.tool_url}/api/lti/launch")
            .set_oidc_login_url(f"{s.tool_url}/api/lti/login")
            .set_tool_key_set_url(s.tool_jwks_url)
            .set_platform_public_key(s.public_key)
            .set_platform_private_key(s.private_key)
        )
        if s.tool_jwks is not None:
            self._registration.set_tool_key_set(s.tool_jwks)

    def get_registration_by_params(self, **kwargs: t.Any) -> Registration:
        assert self._registration is not None
        return self._registration


class Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs: t.Any) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


class QueryRequest(Request):
    def build_metadata(self, request: t.Any) -> t.Any:
        return {"method": "GET", "get_data": request, "form_data": {}, "headers": {}, "path": "/authorize"}


class Launch(LTIAdvantageMessageLaunchAbstract):
    def __init__(self, request: Request, platform: Platform, pending: dict[str, str]) -> None:
        super().__init__(request, platform)
        self.pending = pending

    def prepare_launch(self, preflight_response: dict[str, t.Any]) -> None:
        p = self.pending
        self.set_user_data(p["user"], ROLES[p.get("role", "learner")], full_name="Pat Learner")
        if p.get("message") == "deep_linking":
            data = {"request": p["hint"]}
            self.settings.dl_data[p["hint"]] = data
            accept = set(p.get("accept", "ltiResourceLink").split(","))
            self.set_dl(f"{self.settings.url}/deep-link-return", title="Add an activity", accept_types=accept, extra_data=data)
        elif "content_item" in p:
            item = self.settings.received[int(p["content_item"])]["items"][0]
            link = f"content-item-{p['content_item']}"
            self.set_resource_link_claim(link, title=item.get("title", ""))
            self.set_custom_parameters_claim(item.get("custom", {}))
            if "lineItem" in item:
                # The gradebook column the LMS made from the item's lineItem: launches of the link carry it.
                ags = LtiAgs(
                    lineitems_url=f"{self.settings.url}/lineitems",
                    lineitem_url=f"{self.settings.url}/lineitems/{link}/lineitem",
                )
                self.set_extra_claims(ags.get_lti_ags_launch_claim())
        else:
            self.set_resource_link_claim(p.get("resource_link", "resource-link-1"), title="Fractions check")
        self.set_launch_context_claim(
            p.get("context", "course-1"),
            context_types=["http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"],
            context_title=p.get("context_title", "Grade 7 Maths"),
        )
        if p.get("nrps") == "1":
            self.set_nrps(f"{self.settings.url}/contexts/{quote(p.get('context', 'course-1'), safe='')}/memberships")
        if "assessment" in p:
            link = p.get("resource_link", "resource-link-1")
            self.set_custom_parameters_claim({"checkpoint_assessment_id": p["assessment"]})
            ags = LtiAgs(
                lineitems_url=f"{self.settings.url}/lineitems",
                lineitem_url=f"{self.settings.url}/lineitems/{link}/lineitem",
            )
            self.set_extra_claims(ags.get_lti_ags_launch_claim())
        variant = p.get("variant", "ok")
        if variant == "expired":
            self.set_id_token_expiration(-300)
        elif variant == "wrong_audience":
            self.set_extra_claims({"aud": "another-tool", "azp": "another-tool"})
        elif variant == "unknown_deployment":
            self.set_extra_claims({DEPLOYMENT_CLAIM: "deployment-nobody-registered"})
        elif variant == "other_key":
            assert self._registration is not None
            self._registration.set_platform_private_key(self.settings.other_private_key)

    def render_launch_form(self, launch_data: dict[str, t.Any], **kwargs: t.Any) -> str:
        fields = "".join(
            f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(str(launch_data[k]))}">'
            for k in ("id_token", "state")
        )
        action = html.escape(str(launch_data["launch_url"]))
        return (
            f'<!doctype html><form id="launch" method="post" action="{action}">{fields}</form>'
            '<script>document.getElementById("launch").submit()</script>'
        )


STORAGE_FRAME = "post_message_forwarding"

STORAGE_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>storage</title></head><body><script>
var broken = %s;
var store = {};
window.addEventListener('message', function (e) {
  var m = e.data;
  if (!m || typeof m !== 'object' || (m.subject !== 'lti.put_data' && m.subject !== 'lti.get_data')) return;
  var reply = { subject: m.subject + '.response', message_id: m.message_id, key: m.key };
  var slot = e.origin + ' ' + m.key;
  if (broken) reply.error = { code: 'storage_unavailable', message: 'storage refused' };
  else if (m.subject === 'lti.put_data') { store[slot] = m.value; reply.value = m.value; }
  else if (slot in store) reply.value = store[slot];
  else reply.error = { code: 'not_found', message: 'nothing stored under that key' };
  e.source.postMessage(reply, e.origin);
});
</script></body></html>"""


def handler_for(s: Settings) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: t.Any) -> None:  # noqa: A002 - quiet
            pass

        def answer(self, status: int, body: str, content_type: str, headers: dict[str, str] | None = None) -> None:
            data = body.encode()
            self.send_response(status)
            self.send_header("content-type", content_type)
            self.send_header("content-length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            query = dict(parse_qsl(url.query))
            try:
                if url.path == "/jwks":
                    self.answer(200, json.dumps(Platform(settings=s).get_jwks()), "application/json")
                elif url.path == "/start":
                    hint = secrets.token_urlsafe(12)
                    pending = {"user": query.get("user", "lms-user-1"), **query, "hint": hint}
                    with s.lock:
                        s.pending[hint] = pending
                    deployment = "deployment-nobody-registered" if query.get("variant") == "login_unknown_deployment" else None
                    login = Login(None, Platform(settings=s, deployment_id=deployment))
                    login.set_lti_message_hint(hint=hint)
                    location = login.initiate_login(pending["user"])
                    if "storage_target" in query:
                        location += "&" + urlencode({"lti_storage_target": query["storage_target"]})
                    self.answer(302, "", "text/plain", {"location": location})
                elif url.path == "/course":
                    start = urlencode({**query, "storage_target": STORAGE_FRAME})
                    storage = "/storage?broken=1" if query.get("storage") == "broken" else "/storage"
                    self.answer(
                        200,
                        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course</title></head><body>'
                        f'<iframe name="{STORAGE_FRAME}" src="{storage}" hidden></iframe>'
                        f'<iframe id="tool" title="Checkpoint" src="/start?{html.escape(start)}" width="900" height="600"></iframe>'
                        "</body></html>",
                        "text/html",
                    )
                elif url.path == "/storage":
                    self.answer(200, STORAGE_PAGE % ("true" if query.get("broken") else "false"), "text/html")
                elif url.path == "/deep-links":
                    with s.lock:
                        received = json.dumps(s.received)
                    self.answer(200, received, "application/json")
                elif url.path == "/authorize":
                    with s.lock:
                        pending = s.pending.pop(query.get("lti_message_hint", ""), None)
                    if pending is None or query.get("login_hint") != pending["user"]:
                        self.answer(400, "unknown login", "text/plain")
                        return
                    launch = Launch(QueryRequest(query), Platform(settings=s), pending)
                    launch.settings = s  # type: ignore[attr-defined]
                    self.answer(200, launch.lti_launch(), "text/html")
                elif url.path.startswith("/contexts/") and url.path.endswith("/memberships"):
                    self.memberships(unquote(url.path[len("/contexts/") : -len("/memberships")]), query)
                elif url.path == "/scores":
                    with s.lock:
                        self.answer(200, json.dumps(s.scores), "application/json")
                else:
                    self.answer(404, "not found", "text/plain")
            except Exception as err:  # the test reads why
                self.answer(500, f"{type(err).__name__}: {err}", "text/plain")

        def body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("content-length") or 0))

        def do_PUT(self) -> None:  # noqa: N802
            url = urlparse(self.path)
            if url.path == "/tool-jwks":
                with s.lock:
                    s.tool_jwks = json.loads(self.body())
                self.answer(204, "", "text/plain")
                return
            if not (url.path.startswith("/contexts/") and url.path.endswith("/members")):
                self.answer(404, "not found", "text/plain")
                return
            context_id = unquote(url.path[len("/contexts/") : -len("/members")])
            with s.lock:
                s.rosters[context_id] = json.loads(self.body())
            self.answer(204, "", "text/plain")

        def memberships(self, context_id: str, query: dict[str, str]) -> None:
            """NRPS 2.0 §2.2: the context's membership container, for a bearer token with the NRPS scope."""
            auth = self.headers.get("authorization", "")
            if not auth.lower().startswith("bearer "):
                self.answer(401, "no bearer token", "text/plain")
                return
            platform = Platform(settings=s)
            try:
                platform.validate_token(auth[7:])
                claims = Registration.decode_and_verify(auth[7:], s.public_key)
            except Exception as err:
                self.answer(401, f"{type(err).__name__}: {err}", "text/plain")
                return
            if NRPS_SCOPE not in str(claims.get("scopes", "")).split(" "):
                self.answer(403, "the token lacks the NRPS scope", "text/plain")
                return
            with s.lock:
                roster = s.rosters.get(context_id)
            if roster is None:
                self.answer(404, "no such context", "text/plain")
                return
            page = int(query.get("page", "1"))
            if roster.get("fail_page") == page:
                self.answer(500, "the LMS failed", "text/plain")
                return
            size = int(roster.get("page_size") or 100)
            members = roster.get("members", [])
            for m in members:
                Status(m.get("status", "Active"))  # only the statuses NRPS defines
            base = f"{s.url}/contexts/{quote(context_id, safe='')}/memberships"
            container = {
                "id": f"{base}?page={page}",
                "context": Context(id=context_id, label=context_id, title=roster.get("title", context_id)).__dict__,
                "members": members[(page - 1) * size : page * size],
            }
            headers = {}
            if page * size < len(members):
                # `foreign_next`: what a platform should never send, a next page on another host.
                following = base.replace("127.0.0.1", "localhost") if roster.get("foreign_next") else base
                headers["link"] = f'<{following}?page={page + 1}>; rel="next"'
            self.answer(200, json.dumps(container), NRPS_MEDIA_TYPE, headers)
        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            url = urlparse(self.path)
            if url.path == "/deep-link-return":
                self.deep_link_return()
                return
            raw = self.rfile.read(int(self.headers.get("content-length") or 0)).decode()
            try:
                if url.path == "/token":
                    form = dict(parse_qsl(raw))
                    try:
                        token = Platform(settings=s).get_access_token(form)
                    except Exception as err:  # an assertion the package refuses
                        self.answer(400, json.dumps({"error": "invalid_client", "error_description": str(err)}), "application/json")
                        return
                    self.answer(200, json.dumps(token), "application/json")
                elif url.path.startswith("/lineitems/") and url.path.endswith("/lineitem/scores"):
                    self.score(url.path[: -len("/scores")], raw)
                else:
                    self.answer(404, "not found", "text/plain")
            except Exception as err:  # the test reads why
                self.answer(500, f"{type(err).__name__}: {err}", "text/plain")

        def score(self, lineitem: str, raw: str) -> None:
            auth = self.headers.get("authorization", "")
            try:
                allowed = auth.startswith("Bearer ") and Platform(settings=s).validate_token(
                    auth[len("Bearer ") :], allowed_scopes=["https://purl.imsglobal.org/spec/lti-ags/scope/score"]
                )
            except Exception:  # a token this platform did not sign, or expired
                allowed = False
            if not allowed:
                self.answer(401, "invalid token", "text/plain")
                return
            if self.headers.get("content-type", "").split(";")[0].strip() != "application/vnd.ims.lis.v1.score+json":
                self.answer(415, "not a score", "text/plain")
                return
            score = json.loads(raw)
            with s.lock:
                last = [x for x in s.scores if x["lineitem"] == lineitem and x["userId"] == score.get("userId")]
                if last and last[-1]["timestamp"] > score.get("timestamp", ""):
                    status = UPDATE_SCORE_STATUSCODE[UpdateScoreStatus.OLD_TIMESTAMP]
                else:
                    s.scores.append({**score, "lineitem": lineitem})
                    status = UPDATE_SCORE_STATUSCODE[UpdateScoreStatus.SUCCESS]
            self.answer(status, "{}", "application/json")

        def deep_link_return(self) -> None:
            """The tool's LtiDeepLinkingResponse, posted by the browser (form field JWT)."""
            form = dict(parse_qsl(self.body().decode()))
            try:
                platform = Platform(settings=s)
                platform.set_accepted_deeplinking_types(["ltiResourceLink"])
                # The package: the tool's signature (its JWKS, the kid of the header), the message
                # type and the content item types.
                items = platform.validate_deeplinking_resp({"JWT": form.get("JWT", "")})
                claims = platform.tool_validate_and_decode(form["JWT"])
                # What a platform checks beyond the package: the tool is the one it registered,
                # the answer is meant for it, for this deployment and this request.
                problems = []
                if claims.get("iss") != s.client_id:
                    problems.append("iss is not the tool's client id")
                if claims.get("aud") not in (s.url, [s.url]):
                    problems.append("aud is not this platform")
                if claims.get(DEPLOYMENT_CLAIM) != s.deployment_id:
                    problems.append("deployment_id is not this deployment")
                data = claims.get("https://purl.imsglobal.org/spec/lti-dl/claim/data")
                hint = data.get("request") if isinstance(data, dict) else None
                with s.lock:
                    sent = s.dl_data.pop(hint, None) if isinstance(hint, str) else None
                if sent is None or sent != data:
                    problems.append("data is not what this platform sent (or was used already)")
                if not claims.get("nonce"):
                    problems.append("no nonce")
                if problems:
                    self.answer(400, "; ".join(problems), "text/plain")
                    return
                with s.lock:
                    s.received.append({"items": items, "kid": platform._jwt["header"].get("kid")})
                titles = ", ".join(html.escape(str(i.get("title", ""))) for i in items)
                self.answer(200, f'<!doctype html><h1>Content received</h1><p id="received">{titles}</p>', "text/html")
            except Exception as err:  # the test reads why
                self.answer(400, f"{type(err).__name__}: {err}", "text/plain")

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool-url", required=True)
    parser.add_argument("--client-id", default="checkpoint-tool")
    parser.add_argument("--deployment-id", default="deployment-1")
    parser.add_argument("--tool-jwks-url", default=None)
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument("--port", type=int, default=0, help="0: any free port (a restarted platform keeps its port)")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), BaseHTTPRequestHandler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    s = Settings(url, args.tool_url, args.client_id, args.deployment_id, args.tool_jwks_url)
    server.RequestHandlerClass = handler_for(s)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(
        json.dumps(
            {
                "url": url,
                "issuer": url,
                "clientId": s.client_id,
                "deploymentId": s.deployment_id,
                "jwksUrl": f"{url}/jwks",
                "authorizationUrl": f"{url}/authorize",
                "tokenUrl": f"{url}/token",
            }
        ),
        flush=True,
    )
    # Ends when the test closes stdin (or dies), and in any case after --max-seconds.
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    done.wait(args.max_seconds)
    server.shutdown()


if __name__ == "__main__":
    main()
