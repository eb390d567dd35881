import { createTestContext, listeningUrl, TestContext } from '../support/app';
import { HeadlessBrowser, launchHeadlessChromium } from './browser';

/** Swagger UI in a real browser: the page renders every operation and runs without a console error. */
describe('Swagger UI at /docs', () => {
  let ctx: TestContext;
  let browser: HeadlessBrowser | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    ctx = await createTestContext();
  });

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('lists every operation of the spec, expands one, and logs no error', async () => {
    baseUrl = await listeningUrl(ctx);
    const spec = (await ctx.http().get('/docs/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const methods = ['get', 'post', 'put', 'patch', 'delete'];
    const operationCount = Object.values(spec.paths).reduce(
      (n, item) => n + Object.keys(item).filter((m) => methods.includes(m)).length,
      0,
    );
    expect(operationCount).toBeGreaterThan(40);

    browser = await launchHeadlessChromium();
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') {
        problems.push(`console: ${msg.text()}`);
      }
    });
    page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
    page.on('requestfailed', (req) =>
      problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`),
    );
    page.on('response', (res) => {
      if (res.status() >= 400) {
        problems.push(`HTTP ${res.status()}: ${res.url()}`);
      }
    });

    await page.goto(`${baseUrl}/docs`, { waitUntil: 'load' });
    await page.locator('.opblock').first().waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.locator('.information-container .title').innerText()).toContain(
      'Investment Service API',
    );
    expect(await page.locator('.opblock').count()).toBe(operationCount);

    // The create-investor operation carries the tax id pattern (`...$`) that once broke the page.
    const createInvestor = page.locator('#operations-Investors-createInvestor');
    await createInvestor.locator('.opblock-summary').click();
    const body = createInvestor.locator('.opblock-body');
    await body.locator('.responses-wrapper').waitFor({ state: 'visible', timeout: 10_000 });
    expect(await body.locator('.response-col_status').allInnerTexts()).toEqual(
      expect.arrayContaining(['201', '400', '401']),
    );
    await body.locator('.model-example .tablinks', { hasText: 'Schema' }).first().click();
    await expect(body.innerText()).resolves.toContain('tax_id');
    expect(problems).toEqual([]);
  }, 60_000);
});
