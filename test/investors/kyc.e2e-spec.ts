import { Webhook } from 'standardwebhooks';
import { TestCredentials, TestTenant, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import {
  createInvestor,
  CUSTOMER_AGREEMENT,
  investorKey,
  JPEG,
  PDF,
  PNG,
  prepareForKyc,
  upload,
  useTempStorage,
} from './fixtures';
import { WebhookReceiver } from './receiver';

describe('Compliance: KYC', () => {
  useTempStorage();
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.start({ ctx, creds: tenant.test }));
  afterAll(() => receiver.stop());

  it('through the API alone: investor, documents, disclosures, KYC to ACTIVE, every event on the webhook, a scoped key issued and revoked', async () => {
    const partner = await ctx.createTenant();
    const hook = await ctx.as(partner.test).post('/v1/webhooks', {
      name: 'onboarding',
      url: receiver.url,
      eventTypeNames: ['account.*', 'document.*', 'kyc.*'],
    });
    expect(hook.status).toBe(201);

    const investor = await createInvestor(ctx, partner.test);
    const before = await kyc(partner.test, investor.id);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      object: 'kyc_verification',
      livemode: false,
      investor_id: investor.id,
      account_id: investor.account_id,
      status: 'not_submitted',
      account_status: 'SUBMITTED',
      missing: ['identity_document', 'customer_agreement'],
      rejection_reasons: [],
      submitted_at: null,
      decided_at: null,
    });
    expectSvcError(await submit(partner.test, investor.id), 'SVC-422-001', {
      message: 'KYC cannot be submitted yet; missing: identity_document, customer_agreement.',
    });

    const passport = await upload(ctx, partner.test, investor.id, 'passport', pdf('passport.pdf'));
    const address = await upload(ctx, partner.test, investor.id, 'proof_of_address', {
      bytes: JPEG,
      name: 'bill.jpg',
      contentType: 'image/jpeg',
    });
    const disclosures = await ctx.as(partner.test).get('/v1/disclosures');
    const accepted = await ctx.as(partner.test).post(`/v1/investors/${investor.id}/agreements`, {
      agreements: disclosures.body.data
        .filter((d: { agreement: string }) =>
          ['customer_agreement', 'data_sharing_consent'].includes(d.agreement),
        )
        .map((d: { agreement: string; revision: string }) => ({
          agreement: d.agreement,
          revision: d.revision,
          ip_address: '198.51.100.23',
        })),
    });
    expect(accepted.status).toBe(200);
    expect((await kyc(partner.test, investor.id)).body.missing).toEqual([]);

    const submitted = await submit(partner.test, investor.id);
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      status: 'approved',
      account_status: 'ACTIVE',
      missing: [],
      rejection_reasons: [],
      submitted_at: expect.any(Number),
      decided_at: expect.any(Number),
    });
    const account = await ctx.as(partner.test).get(`/v1/accounts/${investor.account_id}`);
    expect(account.body).toMatchObject({ status: 'ACTIVE' });
    expect(account.body.agreements.map((a: { agreement: string }) => a.agreement)).toEqual([
      'customer_agreement',
      'data_sharing_consent',
    ]);
    const after = await ctx.as(partner.test).get(`/v1/investors/${investor.id}`);
    expect(after.body).toMatchObject({ status: 'active', kyc: { status: 'approved', missing: [] } });
    const documents = await ctx.as(partner.test).get(`/v1/investors/${investor.id}/documents`);
    expect(documents.body.data.map((d: { status: string }) => d.status)).toEqual(['approved', 'approved']);

    const events = await newEvents(partner, new Set());
    expect(names(events)).toEqual([
      'account.created',
      'account.updated',
      'account.updated',
      'account.updated',
      'document.approved',
      'document.approved',
      'kyc.verification.approved',
    ]);
    expect(find(events, 'account.created').data).toMatchObject({
      status: 'SUBMITTED',
      investor_id: investor.id,
    });
    expect(events.filter((e) => e.event === 'account.updated').map((e) => e.data.changed)).toContainEqual([
      'agreements',
    ]);
    const pending = find(events, 'account.updated', { status: 'PENDING_APPROVAL' });
    expect(pending.data).toMatchObject({ previous_status: 'SUBMITTED', kyc_status: 'in_review' });
    expect(find(events, 'document.approved', { id: passport.body.id }).data).toMatchObject({
      object: 'document',
      type: 'passport',
      status: 'approved',
    });
    expect(find(events, 'document.approved', { id: address.body.id }).data).toMatchObject({
      status: 'approved',
    });
    const active = find(events, 'account.updated', { status: 'ACTIVE' });
    expect(active.data).toMatchObject({ previous_status: 'PENDING_APPROVAL', kyc_status: 'approved' });
    expect(find(events, 'kyc.verification.approved').data).toMatchObject({
      object: 'kyc_verification',
      investor_id: investor.id,
      account_id: investor.account_id,
      status: 'approved',
      account_status: 'ACTIVE',
    });

    const deliveries = await receiver.waitFor(events.map((e) => e.id));
    const webhook = new Webhook(hook.body.secret);
    deliveries.forEach((delivery, i) => {
      expect(webhook.verify(delivery.body, delivery.headers as Record<string, string>)).toBeTruthy();
      expect(delivery.json).toMatchObject({ id: events[i].id, event: events[i].event, livemode: false });
      expect(delivery.json.data).toEqual(events[i].data);
    });
    expect(receiver.deliveries.filter((d) => events.some((e) => e.id === d.json.id))).toHaveLength(
      events.length,
    );

    const key = await investorKey(ctx, partner.test, investor.id);
    const own = await ctx.as(key).get('/v1/accounts');
    expect(own.body.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([
      [investor.account_id, 'ACTIVE'],
    ]);
    const revoked = await ctx.as(partner.test).post(`/v1/investors/${investor.id}/api-keys/${key.id}/revoke`);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'revoked' });
    expectSvcError(await ctx.as(key).get('/v1/accounts'), 'SVC-401-001');
  });

  it('a last name of Reject is rejected; the application returns to SUBMITTED and can be corrected', async () => {
    const investor = await createInvestor(ctx, tenant.test, { identity: { last_name: 'Reject' } });
    await prepareForKyc(ctx, tenant.test, investor.id);
    const seen = new Set((await newEvents(tenant, new Set())).map((e) => e.id));
    const res = await submit(tenant.test, investor.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'rejected',
      account_status: 'SUBMITTED',
      rejection_reasons: ['identity_not_verified'],
      decided_at: expect.any(Number),
    });
    expect((await ctx.as(tenant.test).get(`/v1/investors/${investor.id}`)).body.status).toBe('rejected');
    const events = await newEvents(tenant, seen);
    expect(names(events)).toEqual(['account.updated', 'account.updated', 'document.approved']);
    expect(find(events, 'account.updated', { previous_status: 'PENDING_APPROVAL' }).data).toMatchObject({
      status: 'SUBMITTED',
      previous_status: 'PENDING_APPROVAL',
      kyc_status: 'rejected',
    });
    expect(events.some((e) => e.event === 'kyc.verification.approved')).toBe(false);

    const fixed = await ctx.as(tenant.test).patch(`/v1/investors/${investor.id}`, {
      identity: { last_name: 'Okafor' },
    });
    expect(fixed.body.status).toBe('rejected');
    const again = await submit(tenant.test, investor.id);
    expect(again.body).toMatchObject({ status: 'approved', account_status: 'ACTIVE', rejection_reasons: [] });
  });

  it('a document whose file name contains reject is rejected, and so is the application', async () => {
    const investor = await createInvestor(ctx, tenant.test);
    await upload(ctx, tenant.test, investor.id, 'passport', pdf('passport-REJECT.pdf'));
    await ctx.as(tenant.test).post(`/v1/investors/${investor.id}/agreements`, {
      agreements: [CUSTOMER_AGREEMENT],
    });
    const seen = new Set((await newEvents(tenant, new Set())).map((e) => e.id));
    const res = await submit(tenant.test, investor.id);
    expect(res.body).toMatchObject({
      status: 'rejected',
      rejection_reasons: ['document_rejected'],
      missing: ['identity_document'],
    });
    const events = await newEvents(tenant, seen);
    expect(names(events)).toEqual(['account.updated', 'account.updated', 'document.rejected']);
    expect(find(events, 'account.updated', { status: 'SUBMITTED' }).data.kyc_status).toBe('rejected');
    expect(find(events, 'document.rejected').data).toMatchObject({
      object: 'document',
      file_name: 'passport-REJECT.pdf',
      status: 'rejected',
      rejection_reason: 'The document could not be verified.',
      reviewed_at: expect.any(Number),
    });
    expectSvcError(await submit(tenant.test, investor.id), 'SVC-422-001', { message: /identity_document/ });
    await upload(ctx, tenant.test, investor.id, 'id_front', {
      bytes: PNG,
      name: 'front.png',
      contentType: 'image/png',
    });
    expect((await submit(tenant.test, investor.id)).body).toMatchObject({
      status: 'approved',
      account_status: 'ACTIVE',
    });
  });

  it('a politically exposed person waits in review until a test helper decides', async () => {
    const investor = await createInvestor(ctx, tenant.test, {
      disclosures: { is_politically_exposed: true },
    });
    await prepareForKyc(ctx, tenant.test, investor.id);
    const res = await submit(tenant.test, investor.id);
    expect(res.body).toMatchObject({
      status: 'in_review',
      account_status: 'PENDING_APPROVAL',
      decided_at: null,
    });
    expect((await ctx.as(tenant.test).get(`/v1/investors/${investor.id}`)).body.status).toBe(
      'pending_approval',
    );
    expectSvcError(await submit(tenant.test, investor.id), 'SVC-409-001', {
      message: 'Cannot submit KYC for an account in status PENDING_APPROVAL; allowed from SUBMITTED.',
    });
    // A document uploaded during the review is reviewed at once.
    const late = await upload(ctx, tenant.test, investor.id, 'w9', pdf('w9.pdf'));
    expect(late.body).toMatchObject({ status: 'approved', reviewed_at: expect.any(Number) });

    const seen = new Set((await newEvents(tenant, new Set())).map((e) => e.id));
    const approved = await helper(tenant.test, investor.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', account_status: 'ACTIVE' });
    expect(names(await newEvents(tenant, seen))).toEqual(['account.updated', 'kyc.verification.approved']);
    expectSvcError(await helper(tenant.test, investor.id, 'approve'), 'SVC-409-001');
    expectSvcError(await helper(tenant.test, investor.id, 'reject'), 'SVC-409-001');
    expectSvcError(await submit(tenant.test, investor.id), 'SVC-409-001');
  });

  it('the reject helper rejects an application in review or not yet submitted', async () => {
    const pep = await createInvestor(ctx, tenant.test, { disclosures: { is_politically_exposed: true } });
    await prepareForKyc(ctx, tenant.test, pep.id);
    await submit(tenant.test, pep.id);
    const rejected = await helper(tenant.test, pep.id, 'reject');
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      account_status: 'SUBMITTED',
      rejection_reasons: ['rejected_in_review'],
    });
    const fresh = await createInvestor(ctx, tenant.test);
    expect((await helper(tenant.test, fresh.id, 'reject')).body).toMatchObject({ status: 'rejected' });
  });

  it('the approve helper forces approval whatever is missing, approving pending documents', async () => {
    const investor = await createInvestor(ctx, tenant.test, { identity: { last_name: 'Reject' } });
    const doc = await upload(ctx, tenant.test, investor.id, 'passport', pdf('reject-me.pdf'));
    const res = await helper(tenant.test, investor.id, 'approve');
    expect(res.body).toMatchObject({ status: 'approved', account_status: 'ACTIVE', missing: [] });
    expect(
      (await ctx.as(tenant.test).get(`/v1/investors/${investor.id}/documents/${doc.body.id}`)).body.status,
    ).toBe('approved');
    // Once the account is ACTIVE, new sandbox documents are reviewed at upload.
    const later = await upload(ctx, tenant.test, investor.id, 'proof_of_address', pdf('reject.pdf'));
    expect(later.body).toMatchObject({ status: 'rejected' });
  });

  it('a tax resident outside the US also needs a W-8BEN', async () => {
    const investor = await createInvestor(ctx, tenant.test, {
      identity: { country_of_tax_residence: 'KE', tax_id_type: 'KEN_KRA_PIN', tax_id: 'A123456789Z' },
    });
    await prepareForKyc(ctx, tenant.test, investor.id);
    expect((await kyc(tenant.test, investor.id)).body.missing).toEqual(['w8ben']);
    await upload(ctx, tenant.test, investor.id, 'w8ben', pdf('w8ben.pdf'));
    expect((await submit(tenant.test, investor.id)).body.status).toBe('approved');
  });

  it('with a live key the application waits for the compliance review; test helpers do not exist for live keys', async () => {
    const investor = await createInvestor(ctx, tenant.live);
    await prepareForKyc(ctx, tenant.live, investor.id);
    const res = await submit(tenant.live, investor.id);
    expect(res.body).toMatchObject({
      livemode: true,
      status: 'in_review',
      account_status: 'PENDING_APPROVAL',
    });
    const docs = await ctx.as(tenant.live).get(`/v1/investors/${investor.id}/documents`);
    expect(docs.body.data.map((d: { status: string }) => d.status)).toEqual(['pending']);
    expectSvcError(await helper(tenant.live, investor.id, 'approve'), 'SVC-404-001');
    expectSvcError(await helper(tenant.live, investor.id, 'reject'), 'SVC-404-001');
    expectSvcError(await kyc(tenant.test, investor.id), 'SVC-404-001');
  });

  it('an investor key submits and reads its own KYC only', async () => {
    const mine = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, mine.id);
    await prepareForKyc(ctx, key, mine.id);
    expect((await submit(key, mine.id)).body.status).toBe('approved');
    expectSvcError(await kyc(key, other.id), 'SVC-404-001');
    expectSvcError(await submit(key, other.id), 'SVC-404-001');
    expectSvcError(await helper(tenant.test, 'inv_AAAAAAAAAAAAAAAAAAAAAA', 'approve'), 'SVC-404-001');
  });

  it('the KYC helpers act on one investor: its own key may call them, another investor’s id is 404', async () => {
    const mine = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const key = await investorKey(ctx, tenant.test, mine.id);
    const rejected = await helper(key, mine.id, 'reject');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      investor_id: mine.id,
      status: 'rejected',
      account_status: 'SUBMITTED',
    });
    const approved = await helper(key, mine.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      investor_id: mine.id,
      status: 'approved',
      account_status: 'ACTIVE',
    });
    expectSvcError(await helper(key, other.id, 'approve'), 'SVC-404-001');
    expectSvcError(await helper(key, other.id, 'reject'), 'SVC-404-001');
    expect((await kyc(tenant.test, other.id)).body).toMatchObject({ status: 'not_submitted' });
  });

  const kyc = (creds: TestCredentials, investorId: string) =>
    ctx.as(creds).get(`/v1/investors/${investorId}/kyc`);
  const submit = (creds: TestCredentials, investorId: string) =>
    ctx.as(creds).post(`/v1/investors/${investorId}/kyc`);
  const helper = (creds: TestCredentials, investorId: string, decision: 'approve' | 'reject') =>
    ctx.as(creds).post(`/v1/test_helpers/investors/${investorId}/kyc/${decision}`);
  const pdf = (name: string) => ({ bytes: PDF, name, contentType: 'application/pdf' });

  /**
   * Events of the tenant not seen before (each call marks them seen). Events written in one
   * transaction may share a timestamp, so their relative order is not asserted; their names are
   * compared sorted and each is found by its content.
   */
  async function newEvents(owner: TestTenant, seen: Set<string>): Promise<EventRow[]> {
    const rows: EventRow[] = [];
    let after: string | undefined;
    for (;;) {
      const res = await ctx
        .as(owner.test)
        .get(`/v1/events?limit=100${after ? `&starting_after=${after}` : ''}`);
      expect(res.status).toBe(200);
      rows.push(...(res.body.data as EventRow[]));
      if (!res.body.has_more) {
        break;
      }
      after = res.body.data[res.body.data.length - 1].id;
    }
    const fresh = rows.filter((r) => !seen.has(r.id));
    fresh.forEach((r) => seen.add(r.id));
    return fresh;
  }
  const names = (events: EventRow[]) => events.map((e) => e.event).sort();
  const find = (events: EventRow[], event: string, match: Record<string, unknown> = {}) => {
    const found = events.filter(
      (e) => e.event === event && Object.entries(match).every(([k, v]) => e.data[k] === v),
    );
    expect(found).toHaveLength(1);
    return found[0];
  };
});

interface EventRow {
  id: string;
  event: string;
  data: Record<string, any>;
}
