import type { INestApplication } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const DASHBOARD_PATH = '/dashboard';

/**
 * The page holds a secret key: scripts and styles from this origin only, no inline script or
 * style, no third-party origin, API calls to this origin only, never framed.
 */
export const DASHBOARD_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
    objectSrc: ["'none'"],
  },
};

/**
 * Where `npm run build` (vite) put the page: dist/dashboard beside the compiled code, or under
 * the repository's dist/ when the API runs from source (tests, start:dev).
 */
export function dashboardDirectory(): string | null {
  const candidates = [join(__dirname, '../../../dashboard'), join(__dirname, '../../../dist/dashboard')];
  return (
    candidates.find((dir) => existsSync(join(dir, 'index.html')) && existsSync(join(dir, 'assets'))) ?? null
  );
}

/**
 * Serves the partner dashboard at /dashboard: hashed assets cached for good, every other path
 * (a request_log_url such as /dashboard/logs/req_...) answered with the page itself, which routes
 * on the client. All under the strict CSP above.
 */
export function serveDashboard(app: INestApplication): void {
  const dir = dashboardDirectory();
  const csp = helmet.contentSecurityPolicy(DASHBOARD_CSP);
  const assets = dir
    ? express.static(join(dir, 'assets'), {
        immutable: true,
        maxAge: '365d',
        index: false,
        fallthrough: false,
      })
    : null;
  const index = dir ? join(dir, 'index.html') : null;
  // One layer for the whole page: requests elsewhere pay a single path match.
  app.use(DASHBOARD_PATH, (req: Request, res: Response, next: NextFunction) =>
    csp(req, res, () => {
      if (!assets || !index) {
        res.status(503).type('text/plain').send('The dashboard is not built. Run `npm run build`.');
        return;
      }
      if (req.url.startsWith('/assets/')) {
        req.url = req.url.slice('/assets'.length);
        assets(req, res, next);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        next();
        return;
      }
      res.setHeader('Cache-Control', 'no-store');
      res.sendFile(index);
    }),
  );
}
