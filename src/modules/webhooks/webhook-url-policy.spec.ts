import {
  checkUrlShape,
  checkWebhookUrl,
  isForbiddenAddress,
  UrlRefusedError,
} from 'src/modules/webhooks/webhook-url-policy';

describe('webhook url policy', () => {
  it.each([
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '127.0.0.1',
    '127.8.9.10',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'not-an-ip',
  ])('%s is forbidden', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '64:ff9b::808:808'])(
    '%s is public',
    (address) => expect(isForbiddenAddress(address)).toBe(false),
  );

  it('strict mode needs https; the sandbox accepts http', () => {
    expect(() => checkUrlShape('http://example.com/hook', true)).toThrow(/https/);
    expect(checkUrlShape('http://127.0.0.1:9/hook', false).port).toBe('9');
  });

  it('refuses credentials, fragments, other schemes and non-URLs', () => {
    expect(() => checkUrlShape('https://u:p@example.com/', false)).toThrow(UrlRefusedError);
    expect(() => checkUrlShape('https://example.com/#x', false)).toThrow(UrlRefusedError);
    expect(() => checkUrlShape('ftp://example.com/', false)).toThrow(UrlRefusedError);
    expect(() => checkUrlShape('example.com/hook', false)).toThrow(UrlRefusedError);
    expect(() => checkUrlShape(`https://example.com/${'a'.repeat(2048)}`, false)).toThrow(/2048/);
  });

  it('strict mode refuses hosts resolving to loopback, and literal private addresses', async () => {
    await expect(checkWebhookUrl('https://localhost/hook', true)).rejects.toThrow(/resolves to a private/);
    await expect(checkWebhookUrl('https://10.0.0.1/hook', true)).rejects.toThrow(/10\.0\.0\.1/);
    await expect(checkWebhookUrl('https://[::1]/hook', true)).rejects.toThrow(UrlRefusedError);
    await expect(checkWebhookUrl('https://169.254.169.254/latest/meta-data', true)).rejects.toThrow(
      UrlRefusedError,
    );
    await expect(checkWebhookUrl('https://8.8.8.8/hook', true)).resolves.toBeInstanceOf(URL);
  });
});
