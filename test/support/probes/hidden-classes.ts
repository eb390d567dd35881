import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express, NextFunction, Request, Response } from 'express';
import { Agent, get } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { ServiceExpressAdapter } from 'src/core/http/service-express-adapter';
import { sameHiddenClass } from 'test/support/probes/natives';

/**
 * Run with `--allow-natives-syntax` (src/core/http/service-express-adapter.spec.ts): serves pairs
 * of concurrent requests through Nest's Express adapter or the service's (PROBE_ADAPTER: `nest`
 * or `service`), with middleware adding properties to the request and response as the service's do,
 * and prints, as one JSON line, whether the two requests (and the two responses) of each pair had
 * the same V8 hidden class when both reached the handler, and what Express features answered.
 */
const PAIRS = 6;
const adapter = process.env.PROBE_ADAPTER === 'service' ? new ServiceExpressAdapter() : new ExpressAdapter();
adapter.initHttpServer({});
const app = adapter.getInstance<Express>();
const server = adapter.getHttpServer() as Server;
const results: Array<{ requests: boolean; responses: boolean }> = [];
const features: unknown[] = [];
let waiting: Array<[Request & { entered?: number }, Response & { marked?: boolean }]> = [];

app.use((req: Request & { entered?: number }, res: Response & { marked?: boolean }, next: NextFunction) => {
  req.entered = 1;
  res.marked = true;
  next();
});
app.get('/pair/:n', (req, res) => {
  waiting.push([req, res]);
  if (waiting.length < 2) {
    return;
  }
  const [[firstRequest, firstResponse], [secondRequest, secondResponse]] = waiting;
  waiting = [];
  results.push({
    requests: sameHiddenClass(firstRequest, secondRequest),
    responses: sameHiddenClass(firstResponse, secondResponse),
  });
  features.push({
    prototypes:
      Object.getPrototypeOf(firstRequest) === app.request &&
      Object.getPrototypeOf(firstResponse) === app.response,
    host: firstRequest.get('host')?.startsWith('127.0.0.1:'),
    params: firstRequest.params.n,
    query: firstRequest.query.q,
  });
  firstResponse.status(201).json({ ok: true });
  secondResponse.status(201).json({ ok: true });
});

server.listen(0, '127.0.0.1', () => {
  void (async () => {
    const port = (server.address() as AddressInfo).port;
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const answered: Array<{ status?: number; type?: string }> = [];
    const one = (n: number) =>
      new Promise<void>((resolve) =>
        get({ port, host: '127.0.0.1', agent, path: `/pair/${n}?q=x` }, (res) => {
          answered.push({ status: res.statusCode, type: res.headers['content-type'] });
          res.resume();
          res.on('end', resolve);
        }),
      );
    for (let n = 0; n < PAIRS; n++) {
      await Promise.all([one(n), one(n)]);
    }
    agent.destroy();
    server.close();
    // Two warm-up pairs: V8 settles its classes over the first requests.
    process.stdout.write(
      `${JSON.stringify({ pairs: results.slice(2), features: features[PAIRS - 1], answered: answered[0] })}\n`,
    );
  })();
});
