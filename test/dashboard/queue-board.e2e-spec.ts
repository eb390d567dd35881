import { isRemote, useTestContext } from '../support/app';

/**
 * The board's credential: this file's own in process; against a deployment, its ADMIN_CREDENTIALS
 * when QA is given them (E2E_QUEUE_BOARD_CREDENTIALS), else the cases are skipped.
 */
const ADMIN = isRemote ? process.env.E2E_QUEUE_BOARD_CREDENTIALS : 'support:queue-board-password-0123';
const itWithBoard: jest.It = ADMIN ? it : it.skip;

/** @bull-board at /admin/queues, behind the admin credential from the environment. */
describe('Queue board for support', () => {
  beforeAll(() => {
    if (!isRemote) {
      process.env.ADMIN_CREDENTIALS = ADMIN;
    }
  });
  const ctx = useTestContext();
  afterAll(() => {
    delete process.env.ADMIN_CREDENTIALS;
  });

  itWithBoard('refuses requests without the admin credential', async () => {
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

  itWithBoard('shows the webhook delivery and scheduled job queues with it', async () => {
    const page = await ctx.http().get('/admin/queues').set('Authorization', basicOf(ADMIN!));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const queues = await ctx.http().get('/admin/queues/api/queues').set('Authorization', basicOf(ADMIN!));
    expect(queues.status).toBe(200);
    const names = (queues.body as { queues: Array<{ name: string }> }).queues.map((q) => q.name).sort();
    expect(names).toEqual(['scheduled-jobs', 'webhook-deliveries']);
  });

  const basicOf = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;
});
