import { createServer, IncomingHttpHeaders } from 'node:http';

/**
 * Webhook receiver for the benchmark, in its own process: answers 200 to every POST and notes
 * when each event id arrived. `GET /arrivals` returns and clears the notes as `[id, ms][]`;
 * `GET /count` counts them. Every SAMPLE_EVERY-th delivery is kept whole (path, signed headers,
 * body) and `GET /samples` returns and clears those, so the bench can check that what both
 * senders sent verifies as Standard Webhooks.
 */
const SAMPLE_EVERY = 500;

interface Sample {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let arrivals: Array<[string, number]> = [];
let samples: Sample[] = [];
let received = 0;

const server = createServer((req, res) => {
  if (req.method === 'GET' && (req.url === '/arrivals' || req.url === '/samples')) {
    const body = JSON.stringify(req.url === '/arrivals' ? arrivals : samples);
    if (req.url === '/arrivals') {
      arrivals = [];
    } else {
      samples = [];
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    return;
  }
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(String(arrivals.length));
    return;
  }
  // The event id is in the signed headers; the body is drained, not parsed.
  const id = String(req.headers['webhook-id'] ?? '');
  const sample = received++ % SAMPLE_EVERY === 0;
  const chunks: Buffer[] = [];
  if (sample) {
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
  } else {
    req.resume();
  }
  req.on('end', () => {
    arrivals.push([id, Date.now()]);
    if (sample) {
      samples.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
    }
    res.writeHead(200).end();
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
