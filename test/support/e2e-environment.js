// The e2e specs' Jest environment: Node's, plus one thing. When an expectation fails, the last
// responses the test received through ctx.http() are appended to the failure (method, path,
// status, body), so a bare "Expected: 201, Received: 400" always shows why the server refused.
const { TestEnvironment } = require('jest-environment-node');

const SHOWN = 3;
const BODY_CHARS = 1500;

class E2eEnvironment extends TestEnvironment {
  handleTestEvent(event) {
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
}

module.exports = E2eEnvironment;
