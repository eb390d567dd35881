import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ErrorCode } from 'src/core/errors/error-catalog';
import { ERROR_CATALOG } from 'src/core/errors/error-catalog';
import type { ErrorRenderer } from 'src/core/errors/error-renderer';
import { newId } from 'src/core/ids/ids';

/** Largest request line plus headers accepted (431 SVC-431-001 beyond); Node's own default, made explicit. */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Requests Node's HTTP parser refuses never reach Express: Node answers them itself with an empty
 * 400 or 431. This answers them with the SVC envelope (and a Request-Id) instead, then closes the
 * connection, as Node does.
 */
export function answerClientErrorsWithEnvelope(server: Server, renderer: ErrorRenderer): void {
  (server as Server & { maxHeaderSize: number }).maxHeaderSize = MAX_HEADER_BYTES;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
      return;
    }
    const [code, message]: [ErrorCode, string] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? ['SVC-431-001', `The request line and headers exceed ${MAX_HEADER_BYTES} bytes.`]
        : ['SVC-400-001', 'The request is not valid HTTP/1.1.'];
    const status = ERROR_CATALOG[code].status;
    const requestId = newId('request');
    const body = JSON.stringify(renderer.envelope(code, message, requestId));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
}

/**
 * Slow clients: a request line and headers must arrive within `headersMs`, a whole request within
 * `requestMs` (Node answers 408 and closes; the defaults, 60 s and 300 s, let one unfinished header
 * block hold a connection for over a minute). Node checks open connections every
 * `connectionsCheckingInterval` (30 s by default), so it is brought down to a fraction of the
 * headers timeout; it is read when the server starts listening.
 */
export function boundSlowClients(server: Server, headersMs: number, requestMs: number): void {
  server.headersTimeout = headersMs;
  server.requestTimeout = Math.max(requestMs, headersMs);
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    1000,
    Math.ceil(headersMs / 4),
  );
}
