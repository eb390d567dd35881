import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signPayload, webhookSecretBox } from 'src/modules/webhooks/webhook-secrets';

describe('webhook secrets', () => {
  it('a new secret is whsec_ + base64 of 32 bytes', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('signatures verify with the Standard Webhooks library', () => {
    const secret = newWebhookSecret();
    const body = JSON.stringify({ id: 'evt_1', event: 'order.filled' });
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': '' };
    headers['webhook-signature'] = signPayload(secret, 'evt_1', ts, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual({ id: 'evt_1', event: 'order.filled' });
    headers['webhook-signature'] = signPayload(newWebhookSecret(), 'evt_1', ts, body);
    expect(() => new Webhook(secret).verify(body, headers)).toThrow();
  });

  it('the secret box round-trips and refuses another key or a tampered value', () => {
    const box = webhookSecretBox('k'.repeat(32));
    const sealed = box.seal('whsec_abc');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed);
    expect(() => webhookSecretBox('z'.repeat(32)).open(sealed)).toThrow(/another WEBHOOK_SECRET_KEY/);
    const parts = sealed.split(':');
    parts[4] = Buffer.from('whsec_abd').toString('base64url');
    expect(() => box.open(parts.join(':'))).toThrow();
  });
});
