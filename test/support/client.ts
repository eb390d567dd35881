import type request from 'supertest';
import type { Test } from 'supertest';
import type { TestCredentials } from './app';

/** Authorization header value for HTTP Basic with a key pair. */
export function basic(creds: TestCredentials): string {
  return `Basic ${Buffer.from(`${creds.publicKey}:${creds.secret}`).toString('base64')}`;
}

/** Requests as one key (HTTP Basic): the suite's client, `ctx.as(creds)`. */
export interface TestClient {
  get(path: string): Test;
  /** With an idempotency key, the request carries it as Idempotency-Key. */
  post(path: string, body?: unknown, idempotencyKey?: string): Test;
  put(path: string, body?: unknown): Test;
  patch(path: string, body?: unknown): Test;
  delete(path: string): Test;
}

/** The client over a context's `http()` (the in-process app, or E2E_BASE_URL remotely). */
export function clientAs(http: () => ReturnType<typeof request>, creds: TestCredentials): TestClient {
  const auth = (req: Test) => req.set('Authorization', basic(creds));
  return {
    get: (path) => auth(http().get(path)),
    post: (path, body, idempotencyKey) => {
      const req = auth(http().post(path));
      return (idempotencyKey ? req.set('Idempotency-Key', idempotencyKey) : req).send(body as object);
    },
    put: (path, body) => auth(http().put(path)).send(body as object),
    patch: (path, body) => auth(http().patch(path)).send(body as object),
    delete: (path) => auth(http().delete(path)),
  };
}
