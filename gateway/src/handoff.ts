// Hands one /api call to a service whose app runs in the gateway's own process (the all-in-one),
// instead of sending it over a loopback connection: the service's app answers on the client's own
// response. What the service sees is what the proxy would have sent it (proxy.ts): the same
// headers with X-Forwarded-* and the gateway's service token, and the body the gateway has read,
// as a request stream of its own, so that the service parses, limits and checks it as it does any
// request. What the client gets is what the proxy would have passed back: the service's status,
// headers and body, with `no-store` kept on every answer. The loopback hop was about a quarter of
// the all-in-one's CPU per answer save (bench/README.md, "Cost per answer").
import { IncomingMessage, type ServerResponse } from 'node:http';
import onHeaders from 'on-headers';
import type { Logger } from '@checkpoint/service-kit';
import { answerFailure, noStore, outgoingHeaders, type Proxy } from './proxy.ts';

/** A service's app as Express calls it: `done` runs when the app leaves the request unanswered or fails. */
export type InProcessApp = (req: IncomingMessage, res: ServerResponse, done: (err?: unknown) => void) => void;

export function createHandoff(service: string, app: InProcessApp, logger: Logger): Proxy {
  return (req, res) => {
    // The client left while the gateway checked its call: nobody to answer, and its socket (which
    // the service's body parser would look at) is gone.
    if (res.destroyed) return;
    const body = req.rawBody;
    // A request of its own (Express re-prototypes what it handles; the gateway's stays as it is),
    // on the client's socket, its body already complete.
    const handed = new IncomingMessage(req.socket);
    handed.method = req.method;
    handed.url = req.url;
    handed.httpVersion = req.httpVersion;
    handed.httpVersionMajor = req.httpVersionMajor;
    handed.httpVersionMinor = req.httpVersionMinor;
    handed.headers = outgoingHeaders(req, body);
    if (body && body.length > 0) handed.push(body);
    handed.push(null);
    handed.complete = true;
    // The client leaving ends the service's request too (as the proxy's cut connection did): its
    // work and its live streams see `req.destroyed` and stop.
    res.once('close', () => {
      if (!res.writableFinished) handed.destroy();
    });
    onHeaders(res, function (this: ServerResponse) {
      const value = this.getHeader('cache-control');
      this.setHeader('cache-control', noStore(value === undefined ? undefined : String(value)));
    });
    app(handed, res, (err) => {
      // Every service app answers all its requests (404 and error handlers last): only a failure
      // inside those handlers comes here. Answered as the proxy answers a service that broke.
      logger.error({ err, service }, 'in-process service left the request unanswered');
      if (res.writableEnded) return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // A length the service set for an answer it did not send would misframe this one.
      res.removeHeader('content-length');
      answerFailure(res, service, 'bad_gateway');
    });
  };
}
