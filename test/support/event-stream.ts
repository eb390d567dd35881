import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { basic, TestCredentials } from './app';

/** One message of a Server-Sent Events stream. */
export interface StreamMessage {
  id: string;
  event: string;
  data: Record<string, any>;
}

/**
 * A reader of GET /v1/events/stream as a partner's program holds it: the status, the events and
 * the comment lines in arrival order, the end of the stream. `pause()` stops reading (a slow reader).
 */
export interface OpenStream {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body of a refused request (JSON envelope), when status is not 200. */
  body: any;
  events: StreamMessage[];
  comments: string[];
  ended: Promise<void>;
  /** Waits until `count` events (matching `predicate`) have arrived. */
  waitFor(
    count: number,
    predicate?: (m: StreamMessage) => boolean,
    timeoutMs?: number,
  ): Promise<StreamMessage[]>;
  waitForComment(predicate: (c: string) => boolean, timeoutMs?: number): Promise<string>;
  pause(): void;
  resume(): void;
  close(): void;
}

/** Opens the stream at `baseUrl` with a key (query `?...` and Last-Event-ID optional). */
export function openStream(
  baseUrl: string,
  creds: TestCredentials,
  options: { query?: string; lastEventId?: string } = {},
): Promise<OpenStream> {
  const url = new URL(`/v1/events/stream${options.query ? `?${options.query}` : ''}`, baseUrl);
  const headers: Record<string, string> = { Authorization: basic(creds), Accept: 'text/event-stream' };
  if (options.lastEventId !== undefined) {
    headers['Last-Event-ID'] = options.lastEventId;
  }
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { headers }, (res) => {
      const stream = reader(res, () => req.destroy());
      if (res.statusCode !== 200) {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ ...stream, body: text ? JSON.parse(text) : undefined }));
        return;
      }
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

function reader(res: IncomingMessage, destroy: () => void): OpenStream {
  const events: StreamMessage[] = [];
  const comments: string[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  let buffer = '';
  if (res.statusCode === 200) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) {
            comments.push(line.slice(1).trim());
          } else {
            const at = line.indexOf(':');
            fields[line.slice(0, at)] = line.slice(at + 1).replace(/^ /, '');
          }
        }
        if (fields.data !== undefined) {
          events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
        }
      }
      notify();
    });
  }
  const ended = new Promise<void>((resolve) => {
    res.on('end', resolve);
    res.on('close', resolve);
    res.on('error', () => resolve());
  });
  const until = <T>(check: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
    new Promise((resolve, reject) => {
      const tryNow = () => {
        const value = check();
        if (value !== undefined) {
          listeners.delete(tryNow);
          clearTimeout(timer);
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        listeners.delete(tryNow);
        reject(new Error(what()));
      }, timeoutMs);
      listeners.add(tryNow);
      tryNow();
    });
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    body: undefined,
    events,
    comments,
    ended,
    waitFor: (count, predicate = () => true, timeoutMs = 10_000) =>
      until(
        () => {
          const got = events.filter(predicate);
          return got.length >= count ? got : undefined;
        },
        timeoutMs,
        () => `Expected ${count} events; got ${events.map((e) => e.event).join(', ') || 'none'}`,
      ),
    waitForComment: (predicate, timeoutMs = 10_000) =>
      until(
        () => comments.find(predicate),
        timeoutMs,
        () => `No such comment; got ${comments.join(' | ')}`,
      ),
    pause: () => res.pause(),
    resume: () => res.resume(),
    close: destroy,
  };
}
