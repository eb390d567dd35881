import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Pool } from 'pg';
import { countQueries } from 'bench/lib/query-count';
import {
  captureStatements,
  CapturedStatement,
  Part,
  RequestTemplate,
  requestTemplate,
  transactionOf,
  ValueTemplate,
} from 'bench/lib/same-work';

/**
 * The same-work baseline: node:http + pg replaying, per POST, the statements the service sent for
 * one request of the same path (bench/lib/same-work.ts), on a pool of the service's size: the
 * same SQL texts as the same named prepared statements, in one transaction (the captured BEGIN …
 * COMMIT), with the per-request pieces of the parameters made fresh so unique indexes hold. It
 * answers 201 with the service's captured answer, made fresh the same way.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A fresh token of the captured one's shape: a uuid, a number of as many digits, hex digits, or
 * base64url characters (as the service's ids and sealed bodies are made); as long as the captured
 * one. One randomBytes call per token, so the baseline's own work stays small.
 */
function freshToken(token: string): string {
  if (UUID.test(token)) {
    return randomUUID();
  }
  const number = /^-?\d+$/.test(token);
  const hex = /^[0-9a-f]+$/.test(token);
  if (!number && !hex) {
    // Letters of both cases, digits, `-` and `_`: an id (its prefix kept), a sealed body.
    const prefix = /^[a-z]{2,4}_/.exec(token)?.[0] ?? '';
    const length = token.length - prefix.length;
    return (
      prefix +
      randomBytes(Math.ceil((length * 3) / 4))
        .toString('base64url')
        .slice(0, length)
    );
  }
  if (hex && !number) {
    return randomBytes(Math.ceil(token.length / 2))
      .toString('hex')
      .slice(0, token.length);
  }
  const bytes = randomBytes(token.length);
  let text = '';
  for (let i = 0; i < token.length; i++) {
    // A number's first digit: 1 (within bigint for a 19-digit hash, no leading zero).
    const first = text.replace('-', '') === '' && token.length > 1;
    text += token[i] === '-' ? '-' : first ? '1' : String(bytes[i] % 10);
  }
  return text;
}

/** A timestamp of the request's instant (one per request, as the service takes one). */
function timestampNow(tokens: Map<string, string>, separator: string, fraction: number): string {
  let iso = tokens.get('');
  if (iso === undefined) {
    iso = new Date().toISOString();
    tokens.set('', iso);
  }
  const ms = fraction > 0 ? `.${iso.slice(20, 23).padEnd(fraction, '0').slice(0, fraction)}` : '';
  return `${iso.slice(0, 10)}${separator}${iso.slice(11, 19)}${ms}`;
}

/** One parameter of one replay: a per-request token maps to the same fresh token everywhere in the request. */
export function render(value: ValueTemplate, tokens: Map<string, string>): string | Buffer | null {
  if (value === null || typeof value === 'string') {
    return value;
  }
  if ('bytes' in value) {
    return Buffer.from(value.bytes, 'base64');
  }
  if ('fresh_bytes' in value) {
    return randomBytes(value.fresh_bytes);
  }
  return value.parts.map((part: Part) => renderPart(part, tokens)).join('');
}

function renderPart(part: Part, tokens: Map<string, string>): string {
  if (typeof part === 'string') {
    return part;
  }
  if ('timestamp' in part) {
    return timestampNow(tokens, part.timestamp.separator, part.timestamp.fraction);
  }
  let fresh = tokens.get(part.token);
  if (fresh === undefined) {
    fresh = freshToken(part.token);
    tokens.set(part.token, fresh);
  }
  return fresh;
}

/** The replaying server, started by a bench's servers.ts with the file recordTemplates wrote. */
export async function sameWorkServer(file: string): Promise<void> {
  countQueries();
  const templates = JSON.parse(readFileSync(file, 'utf8')) as Record<string, RequestTemplate>;
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
  const replay = async (template: RequestTemplate): Promise<string> => {
    const tokens = new Map<string, string>();
    const client = await pool.connect();
    try {
      for (const s of template.statements) {
        const values = s.values.map((v) => render(v, tokens));
        await client.query(
          s.name
            ? { name: s.name, text: s.text, values, ...(s.rowMode === 'array' ? { rowMode: 'array' } : {}) }
            : { text: s.text, values },
        );
      }
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    return String(render(template.response, tokens));
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const template = templates[req.url ?? ''];
      if (!template) {
        res.writeHead(404).end();
        return;
      }
      replay(template).then(
        (body) => res.writeHead(201, { 'content-type': 'application/json; charset=utf-8' }).end(body),
        (err: unknown) => {
          process.stderr.write(`same-work replay failed: ${String(err)}\n`);
          res.writeHead(500).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`LISTENING ${(server.address() as { port: number }).port}\n`);
}

/**
 * Bench side: two requests of each path sent to the service (`send(path, i)` answers the response
 * text) while its statements are captured, made into templates and written to `file` for
 * sameWorkServer. Resolves with the statements of the request's transaction, what the service sent
 * outside it in the first capture (background work, e.g. a request-log flush landing in the window:
 * not replayed) and how many pairs were captured again because their statements differed (a
 * cached read refreshed inside one of them: the template is always of the common case).
 */
export async function recordTemplates(options: {
  controlPort: number;
  paths: string[];
  send: (path: string, i: number) => Promise<string>;
  file: string;
}): Promise<{ statements: number; outside: string[]; retried: number }> {
  const templates: Record<string, RequestTemplate> = {};
  let first: CapturedStatement[] | undefined;
  let i = 0;
  let retried = 0;
  const capture = async (path: string) => {
    const { statements, result } = await captureStatements(options.controlPort, () =>
      options.send(path, i++),
    );
    return { statements, response: result };
  };
  for (const path of [...new Set(options.paths)]) {
    for (let attempt = 1; ; attempt++) {
      const [a, b] = [await capture(path), await capture(path)];
      try {
        templates[path] = requestTemplate(a, b);
        first ??= a.statements;
        break;
      } catch (err) {
        // A cached read refreshed inside one of the two (the service's caches expire by time): again.
        if (attempt === 5) {
          throw err;
        }
        retried++;
      }
    }
  }
  writeFileSync(options.file, JSON.stringify(templates, null, 1));
  const split = transactionOf(first ?? []);
  return {
    statements: split.transaction.length,
    outside: split.outside.map((s) => s.text.slice(0, 120)),
    retried,
  };
}
