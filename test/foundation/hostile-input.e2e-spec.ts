import { basic, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { createInvestor, investorBody, PDF, useTempStorage } from '../investors/fixtures';

/** Inputs that once answered 500 now answer a 4xx envelope naming the field at fault. */
describe('Hostile input', () => {
  useTempStorage();
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let investorId: string;
  beforeAll(async () => (investorId = (await createInvestor(ctx, tenant.test)).id as string));

  const auth = () => basic(tenant.test);
  const postInvestor = () => ctx.http().post('/v1/investors').set('Authorization', auth());
  const patchInvestor = () => ctx.http().patch(`/v1/investors/${investorId}`).set('Authorization', auth());
  const rawJson = (text: string, contentType = 'application/json') =>
    postInvestor().set('Content-Type', contentType).send(text);

  describe('nesting deeper than 32 levels is refused while parsing', () => {
    it('5,000 nested arrays as the body', async () => {
      const res = await rawJson(`${'['.repeat(5000)}${']'.repeat(5000)}`);
      expectSvcError(res, 'SVC-400-001', { message: /nested deeper than 32 levels/ });
      expect(res.body.error.param).toBeUndefined();
    });

    it('5,350 nested objects under a field, named by its top-level field', async () => {
      const res = await rawJson(`{"metadata":${'{"a":'.repeat(5350)}1${'}'.repeat(5350)}}`);
      expectSvcError(res, 'SVC-400-001', { param: 'metadata', message: /nested deeper than 32 levels/ });
    });

    it('a body at the limit still reaches validation', async () => {
      const nested = JSON.parse(`${'{"a":'.repeat(30)}1${'}'.repeat(30)}`) as unknown;
      const res = await patchInvestor().send({ metadata: { deep: nested } });
      expectSvcError(res, 'SVC-400-001', { param: 'metadata', message: /string values/ });
    });
  });

  describe('content type and charset', () => {
    it.each([
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/json; charset=iso-8859-1',
    ])('%s answers 415', async (contentType) => {
      const res = await rawJson(JSON.stringify(investorBody()), contentType);
      expectSvcError(res, 'SVC-415-001', { param: 'Content-Type' });
    });

    it('a body that is not JSON on a JSON route answers 415', async () => {
      const res = await rawJson('name=Ada', 'application/x-www-form-urlencoded');
      expectSvcError(res, 'SVC-415-001', { param: 'Content-Type' });
    });

    it('charset=utf-8 in any case is accepted', async () => {
      const res = await rawJson(JSON.stringify(investorBody()), 'application/json; charset=UTF-8');
      expect(res.status).toBe(201);
    });
  });

  describe('NUL bytes', () => {
    it('in a body string, named by its path', async () => {
      const body = investorBody();
      body.contact.address.city = 'Lagos\u0000';
      expectSvcError(await postInvestor().send(body), 'SVC-400-001', {
        param: 'contact.address.city',
        message: /NUL/,
      });
    });

    it('in an array item and in a key', async () => {
      const body = investorBody();
      body.contact.address.street = ['1 Main St', 'x\u0000'];
      expectSvcError(await postInvestor().send(body), 'SVC-400-001', { param: 'contact.address.street[1]' });
      expectSvcError(await patchInvestor().send({ metadata: { 'a\u0000b': 'x' } }), 'SVC-400-001', {
        param: 'metadata.a\\u0000b',
      });
    });

    it('in a multipart form field', async () => {
      const res = await ctx
        .http()
        .post(`/v1/investors/${investorId}/documents`)
        .set('Authorization', auth())
        .field('type', 'passport')
        .field('metadata[note]', 'a\u0000b')
        .attach('file', PDF, { filename: 'passport.pdf', contentType: 'application/pdf' });
      expectSvcError(res, 'SVC-400-001', { param: 'metadata.note', message: /NUL/ });
    });

    it('in a query parameter', async () => {
      const res = await ctx.http().get('/v1/assets/search?q=ab%00c').set('Authorization', auth());
      expectSvcError(res, 'SVC-400-001', { param: 'q', message: /NUL/ });
    });

    it('in a path id', async () => {
      const res = await ctx.http().get('/v1/investors/inv_%00').set('Authorization', auth());
      expectSvcError(res, 'SVC-400-001', { param: 'investor_id', message: /NUL/ });
      const webhook = await ctx.http().delete('/v1/webhooks/we_a%00b').set('Authorization', auth());
      expectSvcError(webhook, 'SVC-400-001', { param: 'webhook_id' });
    });
  });

  describe('lone UTF-16 surrogates', () => {
    it.each([
      ['metadata.note', { metadata: { note: 'a\ud800b' } }],
      ['contact.email_address', { contact: { email_address: 'ada\udc00@example.com' } }],
      [
        'contact.address.street[0]',
        { contact: { address: { ...investorBody().contact.address, street: ['\ud83d'] } } },
      ],
    ])('in %s', async (param, patch) => {
      expectSvcError(await patchInvestor().send(patch), 'SVC-400-001', { param, message: /surrogate/ });
    });

    it('a proper pair (an emoji) is fine', async () => {
      const res = await patchInvestor().send({ metadata: { note: 'rocket \ud83d\ude80' } });
      expect(res.status).toBe(200);
      expect(res.body.metadata.note).toBe('rocket 🚀');
    });

    it('an encoded surrogate or broken percent-encoding in the path (not UTF-8: no field to name)', async () => {
      const message = /^Failed to decode param 'inv_%/;
      const res = await ctx.http().get('/v1/investors/inv_%ED%A0%80').set('Authorization', auth());
      expectSvcError(res, 'SVC-400-001', { message });
      const broken = await ctx.http().get('/v1/investors/inv_%E0%A4%A').set('Authorization', auth());
      expectSvcError(broken, 'SVC-400-001', { message });
    });
  });

  describe('an array where an object belongs', () => {
    it.each(['contact', 'identity', 'disclosures'])('%s', async (field) => {
      expectSvcError(await postInvestor().send(investorBody({ [field]: [] })), 'SVC-400-001', {
        param: field,
      });
    });

    it('contact.address', async () => {
      const body = investorBody();
      body.contact.address = [body.contact.address];
      expectSvcError(await postInvestor().send(body), 'SVC-400-001', { param: 'contact.address' });
    });

    it('metadata', async () => {
      expectSvcError(await patchInvestor().send({ metadata: ['a'] }), 'SVC-400-001', { param: 'metadata' });
    });
  });

  describe('prototype keys', () => {
    it('__proto__ anywhere in a body is refused, named', async () => {
      const res = await rawJson('{"metadata":{"__proto__":{"admin":"yes"}}}');
      expectSvcError(res, 'SVC-400-001', { param: 'metadata.__proto__' });
    });

    it('constructor.prototype is refused', async () => {
      const res = await rawJson('{"constructor":{"prototype":{"admin":"yes"}}}');
      expectSvcError(res, 'SVC-400-001', { param: 'constructor.prototype' });
    });
  });

  it('request headers over 16 KiB answer the 431 envelope', async () => {
    const res = await ctx
      .http()
      .get('/v1/accounts')
      .set('Authorization', auth())
      .set('X-Padding', 'a'.repeat(20_000));
    expectSvcError(res, 'SVC-431-001');
    expect(res.headers.connection).toBe('close');
  });
});
