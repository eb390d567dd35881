import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';

type NodeConstructor = (this: object, ...args: unknown[]) => void;

/**
 * A constructor that builds what `base` builds, born with `prototype` (which must inherit from
 * base.prototype). Node's IncomingMessage and ServerResponse are plain constructor functions.
 */
function bornWith(base: NodeConstructor, prototype: object): NodeConstructor {
  function Born(this: object, ...args: unknown[]): void {
    base.apply(this, args);
  }
  Born.prototype = prototype;
  return Born;
}

/**
 * Nest's Express adapter, with its HTTP server making each request and response with Express's
 * prototypes (`app.request`, `app.response`) already in place (Node's `IncomingMessage` and
 * `ServerResponse` server options).
 *
 * Express gives each request and response its prototypes with `Object.setPrototypeOf` when it
 * starts handling them. V8 then gives every property added afterwards (Express's `next`,
 * `baseUrl`, `params`, the body, the principal...) a hidden class of its own for that one object,
 * not one shared by every request: each placement made about 24 new hidden classes (counted with
 * `--log-ic`), and every property access on a request or response missed V8's caches and went to
 * its runtime. Born with the prototypes, Express's `setPrototypeOf` changes nothing and the hidden
 * classes are shared.
 * The objects are the same in every other way: same prototype chain, same own properties.
 */
export class ServiceExpressAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) {
      // Neither is used by this service; Nest's own server for them, as before.
      super.initHttpServer(options);
      return;
    }
    const app = this.getInstance<Express>();
    this.httpServer = createServer(
      {
        IncomingMessage: bornWith(
          IncomingMessage as unknown as NodeConstructor,
          app.request,
        ) as unknown as typeof IncomingMessage,
        ServerResponse: bornWith(
          ServerResponse as unknown as NodeConstructor,
          app.response,
        ) as unknown as typeof ServerResponse,
      },
      app,
    );
  }
}
