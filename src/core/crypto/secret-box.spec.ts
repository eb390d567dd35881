import { SecretBox } from 'src/core/crypto/secret-box';

const box = (purpose: string, keyMaterial: string) =>
  new SecretBox({ purpose, keyMaterial, keyName: 'DATA_ENCRYPTION_KEY' });

describe('SecretBox', () => {
  it('round-trips with a fresh IV per value and never shows the plain text', () => {
    const personal = box('personal-data', 'k'.repeat(32));
    const sealed = personal.seal('123-45-6789');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('6789');
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(SecretBox.isSealed('123-45-6789')).toBe(false);
    expect(personal.seal('123-45-6789')).not.toBe(sealed);
    expect(personal.open(sealed)).toBe('123-45-6789');
  });

  it('one key gives each purpose its own key; another key is named in the error', () => {
    const sealed = box('personal-data', 'k'.repeat(32)).seal('secret');
    expect(() => box('idempotent-responses', 'k'.repeat(32)).open(sealed)).toThrow(
      'The value was sealed under another DATA_ENCRYPTION_KEY.',
    );
    expect(() => box('personal-data', 'z'.repeat(32)).open(sealed)).toThrow(/another DATA_ENCRYPTION_KEY/);
  });

  it('refuses a changed ciphertext or tag and an unreadable value', () => {
    const personal = box('personal-data', 'k'.repeat(32));
    const parts = personal.seal('secret').split(':');
    const flipped = [...parts];
    flipped[4] = Buffer.from('secreT').toString('base64url');
    expect(() => personal.open(flipped.join(':'))).toThrow();
    const badTag = [...parts];
    badTag[3] = Buffer.alloc(16).toString('base64url');
    expect(() => personal.open(badTag.join(':'))).toThrow();
    expect(() => personal.open('plain text')).toThrow('Unreadable ciphertext.');
  });
});
