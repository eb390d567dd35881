// The e2e specs' Jest environment: Node's, plus three things.
// - When an expectation fails, the last responses the test received through ctx.http() are
//   appended to the failure (method, path, status, body), so a bare "Expected: 201, Received: 400"
//   always shows why the server refused.
// - beforeAll and afterAll hooks get a set-up budget of their own (E2E_SETUP_TIMEOUT_MS, default
//   180 s) instead of a test's 30 s: booting the app and cloning its database take a few seconds
//   on an idle machine and far longer on two cores that other runs keep busy. A hook given its own
//   timeout keeps the larger of the two.
// - When the file ends, every test context still open is closed (test/support/app.ts registers
//   them): a beforeAll that timed out while the app was still booting leaves no Redis connection,
//   pool or queue behind, so Jest exits by itself.
const { TestEnvironment } = require('jest-environment-node');

const SHOWN = 3;
const BODY_CHARS = 1500;
const SETUP_TIMEOUT_MS = Number(process.env.E2E_SETUP_TIMEOUT_MS) || 180_000;

class E2eEnvironment extends TestEnvironment {
  async handleTestEvent(event) {
    if (event.name === 'hook_start' && (event.hook.type === 'beforeAll' || event.hook.type === 'afterAll')) {
      event.hook.timeout = Math.max(event.hook.timeout ?? 0, SETUP_TIMEOUT_MS);
    }
    if (event.name === 'run_finish') {
      await this.closeOpenContexts();
    }
    if (event.name === 'test_start' || event.name === 'hook_start') {
      this.global.__e2eResponses = [];
    }
    if ((event.name === 'test_fn_failure' || event.name === 'hook_failure') && event.error) {
      const seen = this.global.__e2eResponses ?? [];
      if (seen.length === 0) {
        return;
      }
      const lines = seen.slice(-SHOWN).map((r) => {
        const body = r.body.length > BODY_CHARS ? `${r.body.slice(0, BODY_CHARS)}…` : r.body;
        return `  ${r.method} ${r.path} → ${r.status} ${body}`;
      });
      const note = `\n\nLast responses of this test (newest last):\n${lines.join('\n')}`;
      const error = event.error;
      if (typeof error === 'object' && error !== null && typeof error.message === 'string') {
        error.message = `${error.message}${note}`;
      }
    }
  }

  /** Closes what the file's contexts left open (their close is idempotent), waiting for late boots. */
  async closeOpenContexts() {
    const open = this.global.__e2eOpenContexts;
    if (!open || open.size === 0) {
      return;
    }
    const closing = [...open].map((booting) =>
      booting.then(
        (context) => context.close(),
        () => undefined,
      ),
    );
    const results = await Promise.allSettled(closing);
    results
      .filter((r) => r.status === 'rejected')
      .forEach((r) => process.stderr.write(`closing a test context failed: ${r.reason}\n`));
  }
}

module.exports = E2eEnvironment;
