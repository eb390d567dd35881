import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Client } from 'pg';

/**
 * The "same-work" baseline's statements, captured from the service itself (bench/lib/same-work-server.ts
 * replays them). A server started with BENCH_CAPTURE_PORT_FILE records every statement its pg
 * clients send while a capture is open (its SQL text, prepared-statement name and row mode, and
 * its parameters as pg sends them: strings, bytes or null), and answers on a control port
 * written to that file: POST /start opens a capture, POST /stop closes it and answers the
 * statements as JSON.
 */

/** A parameter as pg puts it on the wire: text, bytes (base64 here) or NULL. */
export type WireValue = string | null | { bytes: string };

export interface CapturedStatement {
  /** Which pg connection sent it (numbered in the order connections were first seen). */
  client: number;
  name?: string;
  text: string;
  values: WireValue[];
  rowMode?: string;
}

// pg's own conversion of a parameter to what it sends (not in its typings).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): unknown };

function wireValue(value: unknown): WireValue {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) {
    return null;
  }
  return Buffer.isBuffer(prepared) ? { bytes: prepared.toString('base64') } : String(prepared);
}

/** In the service's process: records statements while the bench holds a capture open. */
export async function serveStatementCapture(portFile: string): Promise<void> {
  const clients = new WeakMap<object, number>();
  let nextClient = 0;
  let recording: CapturedStatement[] | undefined;
  const query = Client.prototype.query as (...args: unknown[]) => unknown;
  Client.prototype.query = function captured(this: Client, ...args: unknown[]) {
    if (recording) {
      if (!clients.has(this)) {
        clients.set(this, nextClient++);
      }
      const config = (typeof args[0] === 'string' ? { text: args[0], values: args[1] } : args[0]) as {
        name?: string;
        text: string;
        values?: unknown[];
        rowMode?: string;
      };
      recording.push({
        client: clients.get(this)!,
        name: config.name,
        text: config.text,
        values: (Array.isArray(config.values) ? config.values : []).map(wireValue),
        rowMode: config.rowMode,
      });
    }
    return query.apply(this, args);
  } as typeof Client.prototype.query;
  const control = createServer((req, res) => {
    if (req.url === '/start') {
      recording = [];
      res.end('{}');
    } else {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(recording ?? []));
      recording = undefined;
    }
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  control.unref();
  writeFileSync(portFile, String((control.address() as { port: number }).port));
}

/** Bench side: the statements the service sends while `send` runs (and 100 ms after it). */
export async function captureStatements<T>(
  controlPort: number,
  send: () => Promise<T>,
): Promise<{ statements: CapturedStatement[]; result: T }> {
  const control = `http://127.0.0.1:${controlPort}`;
  await fetch(`${control}/start`, { method: 'POST' });
  const result = await send();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const statements = (await (
    await fetch(`${control}/stop`, { method: 'POST' })
  ).json()) as CapturedStatement[];
  return { statements, result };
}

/**
 * A captured parameter made into a template: a constant (the same in both captured requests),
 * fresh bytes of its length, or text whose per-request pieces are made fresh per replay.
 */
export type ValueTemplate = WireValue | { fresh_bytes: number } | { parts: Part[] };

/** Literal text, a per-request token (made fresh, the same one everywhere in a request), or a timestamp (now). */
export type Part = string | { token: string } | { timestamp: { separator: string; fraction: number } };

export interface StatementTemplate {
  name?: string;
  text: string;
  rowMode?: string;
  values: ValueTemplate[];
}

/** What the same-work server replays for one path: the transaction's statements and the answer. */
export interface RequestTemplate {
  statements: StatementTemplate[];
  response: ValueTemplate;
}

const PIECES = /(\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}:\d{2}(?:\.(\d+))?)|([A-Za-z0-9_-]+)/g;

function piecesOf(text: string): Set<string> {
  return new Set(Array.from(text.matchAll(PIECES), (m) => m[0]));
}

/**
 * Which parts of a parameter are per request: `a` and `b` are the same parameter of two requests
 * of one account that differ only in their Idempotency-Key. Equal values are constants. In
 * differing text, a timestamp or token (a run of letters, digits, `-` and `_`: an id, a key, a
 * number) of `a` that does not occur in `b` is per request; the rest stays as captured.
 */
export function valueTemplate(a: WireValue, b: WireValue): ValueTemplate {
  if (a === null || JSON.stringify(a) === JSON.stringify(b)) {
    return a;
  }
  if (typeof a !== 'string') {
    return { fresh_bytes: Buffer.from(a.bytes, 'base64').length };
  }
  const inB = typeof b === 'string' ? piecesOf(b) : new Set<string>();
  const parts: Part[] = [];
  let last = 0;
  const literal = (text: string) => {
    if (typeof parts[parts.length - 1] === 'string') {
      parts[parts.length - 1] += text;
    } else if (text) {
      parts.push(text);
    }
  };
  for (const m of a.matchAll(PIECES)) {
    literal(a.slice(last, m.index));
    last = m.index + m[0].length;
    if (inB.has(m[0])) {
      literal(m[0]);
    } else if (m[1]) {
      parts.push({ timestamp: { separator: m[2], fraction: m[3]?.length ?? 0 } });
    } else {
      parts.push({ token: m[0] });
    }
  }
  literal(a.slice(last));
  return { parts };
}

/** The statements of the one transaction in a capture: its connection's, from BEGIN to COMMIT. */
export function transactionOf(statements: CapturedStatement[]): {
  transaction: CapturedStatement[];
  outside: CapturedStatement[];
} {
  const begin = statements.findIndex((s) => /^(BEGIN|START TRANSACTION)/i.test(s.text));
  if (begin < 0) {
    throw new Error('the captured request ran no transaction');
  }
  const client = statements[begin].client;
  const end = statements.findIndex((s, i) => i > begin && s.client === client && /^COMMIT/i.test(s.text));
  if (end < 0) {
    throw new Error('the captured transaction did not commit within the capture');
  }
  const transaction = statements.filter((s, i) => s.client === client && i >= begin && i <= end);
  return { transaction, outside: statements.filter((s) => !transaction.includes(s)) };
}

/** The template of one path from two captured requests of it (see valueTemplate). */
export function requestTemplate(
  a: { statements: CapturedStatement[]; response: string },
  b: { statements: CapturedStatement[]; response: string },
): RequestTemplate {
  const ta = transactionOf(a.statements).transaction;
  const tb = transactionOf(b.statements).transaction;
  if (ta.length !== tb.length || ta.some((s, i) => s.text !== tb[i].text)) {
    const texts = (t: CapturedStatement[]) => t.map((x) => x.text.slice(0, 80));
    throw new Error(
      `two requests of one path sent different statements: ${JSON.stringify([texts(a.statements), texts(b.statements)])}`,
    );
  }
  return {
    statements: ta.map((s, i) => ({
      name: s.name,
      text: s.text,
      rowMode: s.rowMode,
      values: s.values.map((v, j) => valueTemplate(v, tb[i].values[j])),
    })),
    response: valueTemplate(a.response, b.response),
  };
}
