import { isRemote, useTestContext } from '../support/app';

/**
 * In process the board is off unless a file sets ADMIN_CREDENTIALS; a deployment whose board
 * credential QA was given (E2E_QUEUE_BOARD_CREDENTIALS, see queue-board.e2e-spec.ts) has one.
 */
const itWithoutBoard: jest.It = isRemote && process.env.E2E_QUEUE_BOARD_CREDENTIALS ? it.skip : it;

/** The dashboard page as served: client-side routes, hashed assets, the strict CSP and helmet's headers. */
describe('Dashboard page and security headers', () => {
  const ctx = useTestContext();

  it('answers every dashboard path with the page under a strict Content-Security-Policy', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/logs/req_9xq2ZtM1Xb3l0pV7aQmN4w']) {
      const res = await ctx.http().get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
      // No inline script or style in the page itself: the CSP would block it.
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(res.text).not.toMatch(/<style|style=/);
    }
  });

  it('serves the hashed assets the page names, cached for good', async () => {
    const page = await ctx.http().get('/dashboard/');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const res = await ctx.http().get(asset);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toContain('immutable');
    }
    expect((await ctx.http().get('/dashboard/assets/missing.js')).status).toBe(404);
  });

  it('sends the usual security headers on API answers too', async () => {
    const res = await ctx.http().get('/v1/webhooks/event-types');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toContain('max-age=');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  itWithoutBoard('has no queue board when ADMIN_CREDENTIALS is unset', async () => {
    expect((await ctx.http().get('/admin/queues')).status).toBe(404);
  });
});
