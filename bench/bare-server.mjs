// The yardstick of bench/closed-loop.mjs: a bare Node `http` server that reads each request's body
// and answers a small JSON document, with no framework, database or logging. The same load
// generator against it shows how many requests per second the generator itself can drive.
// Prints `BARE_READY <port>` once listening on 127.0.0.1 (port 0: a free one).
import http from 'node:http';

const answer = JSON.stringify({
  id: '00000000-0000-4000-8000-000000000000',
  answer: 'An answer of the usual length',
  clientSeq: 1,
  updatedAt: new Date(0).toISOString(),
});
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`BARE_READY ${server.address().port}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
