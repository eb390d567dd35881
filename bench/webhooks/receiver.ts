import { createServer } from 'node:http';

/**
 * Webhook receiver for the benchmark, in its own process: answers 200 to every POST and notes
 * when each event id arrived. `GET /arrivals` returns and clears the notes as `[id, ms][]`.
 */
let arrivals: Array<[string, number]> = [];

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/arrivals') {
    const body = JSON.stringify(arrivals);
    arrivals = [];
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    return;
  }
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(String(arrivals.length));
    return;
  }
  // The event id is in the signed headers; the body is drained, not parsed.
  const id = String(req.headers['webhook-id'] ?? '');
  req.resume();
  req.on('end', () => {
    arrivals.push([id, Date.now()]);
    res.writeHead(200).end();
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
