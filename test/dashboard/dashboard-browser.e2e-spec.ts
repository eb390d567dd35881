import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HeadlessBrowser, launchHeadlessChromium } from '../docs/browser';
import { WebhookReceiver } from '../investors/receiver';
import { basic, listeningUrl, useTenant, useTestContext } from '../support/app';
import { freezeClock, MONDAY_OPEN, trader } from '../trading/support/trading';

/**
 * The dashboard in headless Chromium against the real app: sign in, follow an error's
 * request_log_url, resend an event to a loopback receiver, download an investor's trade confirmation
 * from its page, move the test clock, sign out.
 */
describe('Dashboard in a browser', () => {
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let browser: HeadlessBrowser | undefined;
  const receiver = new WebhookReceiver();
  afterAll(() => browser?.close());
  afterAll(() => receiver.stop());

  it('signs in, shows a request behind its request_log_url, resends an event and moves the test clock', async () => {
    const baseUrl = await listeningUrl(ctx);
    const auth = basic(tenant.test);

    // A webhook endpoint on a loopback receiver (a webhook sink remotely), and one delivered event.
    const receiverUrl = await receiver.start({ ctx, creds: tenant.test });
    const webhook = await ctx
      .http()
      .post('/v1/webhooks')
      .set('Authorization', auth)
      .send({ name: 'Loopback receiver', url: receiverUrl, eventTypeNames: ['*'] });
    expect(webhook.status).toBe(201);
    const event = await ctx
      .http()
      .post(`/v1/test_helpers/webhooks/${webhook.body.id}/test-event`)
      .set('Authorization', auth);
    expect(event.status).toBe(200);
    await receiver.waitFor([event.body.id]);

    // A real error, and its request_log_url.
    const failed = await ctx
      .http()
      .post('/v1/investors')
      .set('Authorization', auth)
      .send({ first_name: 'Ada', nickname: 'unknown field' });
    expect(failed.status).toBe(400);
    const requestLogUrl = new URL(failed.body.error.request_log_url as string);
    const requestId = failed.headers['request-id'] as string;
    expect(requestLogUrl.pathname).toBe(`/dashboard/logs/${requestId}`);

    browser = await launchHeadlessChromium();
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const problems: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`));
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('response', (res) => res.status() >= 400 && problems.push(`HTTP ${res.status()}: ${res.url()}`));
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));

    // Follow the request_log_url: the sign-in form first, then that request's page.
    const response = await page.goto(`${baseUrl}${requestLogUrl.pathname}`, { waitUntil: 'load' });
    const csp = response!.headers()['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await page.getByLabel('Public key').fill(tenant.test.publicKey);
    await page.getByLabel('Secret').fill(tenant.test.secret);
    await shot(page, 'sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('error').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('status').innerText()).toBe('400');
    expect(await page.getByTestId('request-line').innerText()).toBe('POST /v1/investors');
    expect(await page.getByTestId('error-message').innerText()).toBe(failed.body.error.message);
    expect(await page.getByTestId('advice').innerText()).toContain(`"${failed.body.error.param}"`);
    expect(await page.getByTestId('doc-link').getAttribute('href')).toBe(failed.body.error.doc_url);
    expect(await page.getByTestId('mode').innerText()).toBe('Test mode');
    await shot(page, 'request');

    // The key pair is in sessionStorage only, never in the URL or localStorage.
    // (Evaluated in the page, where the DOM globals exist.)
    const storage = await page.evaluate<{ session: string; local: string; href: string }>(
      '({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage), href: location.href })',
    );
    expect(storage.session).toContain(tenant.test.secret);
    expect(storage.local).not.toContain(tenant.test.secret);
    expect(storage.href).not.toContain(tenant.test.secret);
    expect(requested.filter((u) => u.includes(tenant.test.secret))).toEqual([]);
    expect(requested.every((u) => u.startsWith(baseUrl))).toBe(true);

    await page.getByRole('link', { name: 'Request log', exact: true }).click();
    await page.getByRole('link', { name: requestId }).waitFor();
    await shot(page, 'request-log');

    // The event with its delivery, resent from the page: the receiver gets it again, same id.
    await page.goto(`${baseUrl}/dashboard/events/${event.body.id}`, { waitUntil: 'load' });
    await page.getByTestId('attempts').locator('tbody tr').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('resend').click();
    await page.getByRole('status').waitFor();
    expect(await page.getByRole('status').innerText()).toContain(`${webhook.body.id} (run 1)`);
    const deadline = Date.now() + 15_000;
    while (
      (await receiver.refresh(), receiver.deliveries.filter((d) => d.json.id === event.body.id)).length < 2
    ) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('attempts').locator('tbody tr').nth(1).waitFor({ timeout: 15_000 });
    await shot(page, 'event');

    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByTestId('failure-rate').waitFor();
    expect(await page.getByTestId('failure-rate').innerText()).toBe('0 % of the last 2 attempts failed');
    await shot(page, 'webhooks');

    // An investor who traded on Monday: by Tuesday 07:00 New York its confirmation exists.
    await freezeClock(ctx, tenant.test, MONDAY_OPEN);
    const investor = await trader(ctx, tenant.test, '5000.00');
    const bought = await investor.place({
      symbol: 'AAPL',
      side: 'buy',
      type: 'market',
      time_in_force: 'day',
      quantity: '2',
    });
    expect(bought.body.status).toBe('filled');
    await freezeClock(ctx, tenant.test, '2049-03-02T15:00:00Z');

    await page.getByRole('link', { name: 'Investors', exact: true }).click();
    await page.getByRole('heading', { name: 'Investors' }).waitFor();
    await shot(page, 'investors');

    // Its page lists the activities and the confirmation, which downloads as the PDF.
    await page.getByRole('link', { name: investor.investor.id }).click();
    await page.getByTestId('activities').getByText('FILL').waitFor();
    const button = page.getByRole('button', { name: 'Download trade-confirmation-2049-03-01.pdf' });
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(file.suggestedFilename()).toBe('trade-confirmation-2049-03-01.pdf');
    const saved = await file.path();
    expect(readFileSync(saved).subarray(0, 5).toString()).toBe('%PDF-');
    expect(execFileSync('pdftotext', [saved, '-'], { encoding: 'utf8' })).toContain(
      'Trade confirmation 2049-03-01',
    );
    await shot(page, 'investor');

    // Sandbox: move the test clock one hour from the page.
    const before = Date.now();
    await page.getByRole('link', { name: 'Sandbox', exact: true }).click();
    await page.getByLabel('Advance by (seconds)').fill('3600');
    await page.getByTestId('advance-clock').click();
    await page.getByText(/Test clock now .* \(frozen\)/).waitFor();
    const clock = await ctx.http().get('/v1/test_helpers/clock').set('Authorization', auth);
    expect(clock.body.frozen_time).not.toBeNull();
    expect(Date.parse(clock.body.now)).toBeGreaterThanOrEqual(before + 3600_000);
    await shot(page, 'sandbox');

    // Signing out forgets the key pair.
    await page.getByTestId('sign-out').click();
    await page.getByLabel('Secret').waitFor();
    expect(await page.evaluate<number>('sessionStorage.length')).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  async function shot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: join(SCREENSHOTS, `dashboard-${name}.png`), fullPage: true });
    }
  }
});

/** Set to a folder (docs/) to save screenshots of the main pages while the test runs. */
const SCREENSHOTS = process.env.DASHBOARD_SCREENSHOTS;
