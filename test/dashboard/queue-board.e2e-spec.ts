import { createTestContext, itLocal, TestContext } from '../support/app';

const ADMIN = 'support:queue-board-password-0123';

/** @bull-board at /admin/queues, behind the admin credential from the environment. */
describe('Queue board for support', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    process.env.ADMIN_CREDENTIALS = ADMIN;
    ctx = await createTestContext();
  });

  afterAll(async () => {
    delete process.env.ADMIN_CREDENTIALS;
    await ctx.close();
  });

  const basicOf = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

  itLocal('refuses requests without the admin credential', async () => {
    const none = await ctx.http().get('/admin/queues');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Basic');
    const wrong = await ctx
      .http()
      .get('/admin/queues')
      .set('Authorization', basicOf('support:wrong-password-000000'));
    expect(wrong.status).toBe(401);
    const apiWrong = await ctx.http().get('/admin/queues/api/queues').set('Authorization', basicOf('x:y'));
    expect(apiWrong.status).toBe(401);
  });

  itLocal('shows the webhook delivery and scheduled job queues with it', async () => {
    const page = await ctx.http().get('/admin/queues').set('Authorization', basicOf(ADMIN));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const queues = await ctx.http().get('/admin/queues/api/queues').set('Authorization', basicOf(ADMIN));
    expect(queues.status).toBe(200);
    const names = (queues.body as { queues: Array<{ name: string }> }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['scheduled-jobs', 'webhook-deliveries']);
  });
});
