import express, { Request, Response } from 'express';
import { request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { answerJsonDirectly } from 'src/core/http/json-response';

describe('answerJsonDirectly', () => {
  let plain: Server;
  let direct: Server;
  beforeAll(async () => {
    [plain, direct] = await Promise.all([appServer(false), appServer(true)]);
  });
  afterAll(() => {
    plain.close();
    direct.close();
  });

  it.each([
    ['POST', '/created', {}],
    ['GET', '/created', {}],
    ['HEAD', '/created', {}],
    ['GET', '/created', { 'if-none-match': '*' }],
    ['GET', '/empty', {}],
    ['GET', '/typed', {}],
    ['GET', '/nothing', {}],
  ])('answers %s %s %j with the same bytes as Express', async (method, path, headers) => {
    expect(await rawAnswer(direct, method, path, headers)).toBe(
      await rawAnswer(plain, method, path, headers),
    );
  });
});

/** Status, raw headers (Date left out) and body of one request to `server`. */
function rawAnswer(server: Server, method: string, path: string, headers: Record<string, string> = {}) {
  const { port } = server.address() as AddressInfo;
  return new Promise<string>((resolve, reject) => {
    const req = httpRequest({ port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i].toLowerCase() !== 'date') {
            lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
          }
        }
        resolve(`${res.statusCode}\n${lines.join('\n')}\n\n${body}`);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function appServer(direct: boolean): Promise<Server> {
  const app = express();
  app.set('etag', false);
  if (direct) {
    answerJsonDirectly(app as unknown as Parameters<typeof answerJsonDirectly>[0]);
  }
  app.all('/created', (_req: Request, res: Response) => res.status(201).json({ id: 'txn_1', note: 'é <b>' }));
  app.get('/empty', (_req: Request, res: Response) => res.status(204).json({ gone: true }));
  app.get('/typed', (_req: Request, res: Response) => res.type('application/problem+json').json({ a: 1 }));
  app.get('/nothing', (_req: Request, res: Response) => res.json(undefined));
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}
