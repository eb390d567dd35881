import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { staticHeadersOf } from 'src/core/http/request-entry';

function freshResponse(): ServerResponse {
  return new ServerResponse(new IncomingMessage(new Socket()));
}

describe('staticHeadersOf', () => {
  it("sets exactly the headers helmet sets, with helmet's values", () => {
    const middleware = helmet({ contentSecurityPolicy: false });
    const byHelmet = freshResponse();
    middleware({} as Request, byHelmet as unknown as Response, () => undefined);
    const computed = freshResponse();
    for (const [name, value] of staticHeadersOf(middleware)) {
      computed.setHeader(name, value);
    }
    expect(computed.getHeaders()).toEqual(byHelmet.getHeaders());
    expect(Object.keys(computed.getHeaders())).toEqual(
      expect.arrayContaining(['x-content-type-options', 'strict-transport-security', 'x-frame-options']),
    );
  });

  it('refuses a middleware that does not finish at once', () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(next);
    expect(() => staticHeadersOf(later)).toThrow(/did not finish synchronously/);
  });
});
