import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { basic, isRemote, TestCredentials, useTenant, useTestContext } from '../support/app';
import { expectSvcError } from '../support/errors';
import { binary, createInvestor, eventsOf, investorKey, upload, useTempStorage } from './fixtures';
import { JPEG, PDF, PNG } from './fixtures';

describe('Documents', () => {
  const storageDir = useTempStorage();
  beforeAll(() => (process.env.DOCUMENT_MAX_BYTES = String(MAX_BYTES)));
  const ctx = useTestContext();
  const tenant = useTenant(ctx);
  let investor: Record<string, any>;
  beforeAll(async () => (investor = await createInvestor(ctx, tenant.test)));
  afterAll(async () => {
    await ctx.close();
    delete process.env.DOCUMENT_MAX_BYTES;
  });

  it.each([
    ['passport', 'application/pdf', 'passport scan.pdf', PDF],
    ['id_front', 'image/png', 'front.png', PNG],
    ['proof_of_address', 'image/jpeg', 'utility bill é.jpg', JPEG],
  ])('uploads a %s (%s) and downloads it byte for byte', async (type, contentType, name, bytes) => {
    const res = await upload(ctx, tenant.test, investor.id, type, { bytes, name, contentType });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^doc_[A-Za-z0-9_-]{22}$/),
      object: 'document',
      created: expect.any(Number),
      livemode: false,
      metadata: {},
      investor_id: investor.id,
      account_id: investor.account_id,
      type,
      status: 'pending',
      file_name: name,
      content_type: contentType,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      rejection_reason: null,
      reviewed_at: null,
    });
    const file = await download(tenant.test, investor.id, res.body.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe(contentType);
    expect(file.headers['content-length']).toBe(String(bytes.length));
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="${name.replace('é', '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
    expect((await get(tenant.test, `/v1/investors/${investor.id}/documents/${res.body.id}`)).body).toEqual(
      res.body,
    );
  });

  it('stores bytes under server-generated names only, never the uploaded name', async () => {
    const bytes = Buffer.concat([PDF, Buffer.from('unique-marker-1')]);
    const res = await upload(ctx, tenant.test, investor.id, 'other', {
      bytes,
      name: '../../../../etc/evil.pdf',
      contentType: 'application/pdf',
    });
    expect(res.status).toBe(201);
    expect(res.body.file_name).toBe('evil.pdf');
    // The path in the uploaded name reaches neither the download's name nor its bytes.
    const file = await download(tenant.test, investor.id, res.body.id);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="evil.pdf"; filename*=UTF-8''evil.pdf`,
    );
    expect(Buffer.compare(file.body as Buffer, bytes)).toBe(0);
    if (!isRemote) {
      const files = storedFiles(storageDir);
      const stored = files.filter((f) => f.bytes.equals(bytes));
      expect(stored).toHaveLength(1);
      expect(stored[0].name).toMatch(/^[0-9a-f]{32}$/);
      expect(files.every((f) => /^[0-9a-f]{32}$/.test(f.name))).toBe(true);
    }
  });

  it('accepts metadata as form fields', async () => {
    const res = await ctx
      .http()
      .post(`/v1/investors/${investor.id}/documents`)
      .set('Authorization', basic(tenant.test))
      .field('type', 'w9')
      .field('metadata[source]', 'mobile')
      .attach('file', PDF, { filename: 'w9.pdf', contentType: 'application/pdf' });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ source: 'mobile' });
  });

  /** Documents of the investor as the API lists them (remote runs cannot look into storage). */
  const listedDocuments = async (): Promise<Array<{ id: string }>> => {
    const res = await ctx
      .http()
      .get(`/v1/investors/${investor.id}/documents?limit=100`)
      .set('Authorization', basic(tenant.test));
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it('an upload repeated with the same Idempotency-Key is replayed, not stored twice', async () => {
    const listedBefore = (await listedDocuments()).length;
    const bytes = Buffer.concat([PDF, Buffer.from('idempotent-upload')]);
    const send = () =>
      upload(ctx, tenant.test, investor.id, 'w9', {
        bytes,
        name: 'w9.pdf',
        contentType: 'application/pdf',
      }).set('Idempotency-Key', 'upload-w9-once');
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await listedDocuments()).toHaveLength(listedBefore + 1);
    if (!isRemote) {
      expect(storedFiles(storageDir).filter((f) => f.bytes.equals(bytes))).toHaveLength(1);
    }
  });

  describe('refusals', () => {
    /** Nothing listed afterwards, and (with the in-process app) no bytes left in storage. */
    const refusedLeavesNothing = async (send: () => Promise<any>) => {
      const before = isRemote ? 0 : storedFiles(storageDir).length;
      const listedBefore = (await listedDocuments()).length;
      const res = await send();
      expect(await listedDocuments()).toHaveLength(listedBefore);
      if (!isRemote) {
        expect(storedFiles(storageDir)).toHaveLength(before);
      }
      return res;
    };

    it('a content type the bytes contradict is refused (400 param file) and nothing is kept', async () => {
      const res = await refusedLeavesNothing(() =>
        upload(ctx, tenant.test, investor.id, 'passport', {
          bytes: PDF,
          name: 'passport.png',
          contentType: 'image/png',
        }),
      );
      expectSvcError(res, 'SVC-400-001', {
        param: 'file',
        message: 'The file content is not image/png as declared.',
      });
      const html = await refusedLeavesNothing(() =>
        upload(ctx, tenant.test, investor.id, 'passport', {
          bytes: Buffer.from('<html><script>alert(1)</script></html>'),
          name: 'passport.pdf',
          contentType: 'application/pdf',
        }),
      );
      expectSvcError(html, 'SVC-400-001', { param: 'file' });
    });

    it('an unsupported content type is refused (400 param file)', async () => {
      const res = await refusedLeavesNothing(() =>
        upload(ctx, tenant.test, investor.id, 'other', {
          bytes: Buffer.from('GIF89a....'),
          name: 'a.gif',
          contentType: 'image/gif',
        }),
      );
      expectSvcError(res, 'SVC-400-001', {
        param: 'file',
        message: "Unsupported content type 'image/gif'; send application/pdf, image/png, image/jpeg.",
      });
    });

    it('a file over DOCUMENT_MAX_BYTES answers 413 SVC-413-001 and nothing is kept', async () => {
      // The limit is this file's setting locally; a sandbox keeps its own (10 MB by default), which
      // the refusal names.
      const limit = isRemote ? 10 * 1024 * 1024 : MAX_BYTES;
      const big = Buffer.concat([PDF, Buffer.alloc(limit, 0x20)]);
      const res = await refusedLeavesNothing(() =>
        upload(ctx, tenant.test, investor.id, 'passport', {
          bytes: big,
          name: 'big.pdf',
          contentType: 'application/pdf',
        }),
      );
      expectSvcError(res, 'SVC-413-001', {
        param: 'file',
        message: `The file exceeds the upload limit of ${limit} bytes.`,
      });
      const exact = Buffer.concat([PDF, Buffer.alloc(limit - PDF.length, 0x20)]);
      const ok = await upload(ctx, tenant.test, investor.id, 'other', {
        bytes: exact,
        name: 'exact.pdf',
        contentType: 'application/pdf',
      });
      expect(ok.status).toBe(201);
      expect(ok.body.size).toBe(limit);
    });

    it('a missing or unknown type is refused after the upload, and the bytes are removed', async () => {
      const missing = await refusedLeavesNothing(() =>
        ctx
          .http()
          .post(`/v1/investors/${investor.id}/documents`)
          .set('Authorization', basic(tenant.test))
          .attach('file', PDF, { filename: 'a.pdf', contentType: 'application/pdf' }),
      );
      expectSvcError(missing, 'SVC-400-002', { param: 'type' });
      const unknown = await refusedLeavesNothing(() =>
        upload(ctx, tenant.test, investor.id, 'selfie', {
          bytes: PDF,
          name: 'a.pdf',
          contentType: 'application/pdf',
        }),
      );
      expectSvcError(unknown, 'SVC-400-001', { param: 'type' });
    });

    it('no file, a JSON body, or the file in another field are refused naming the field', async () => {
      const noFile = await ctx
        .http()
        .post(`/v1/investors/${investor.id}/documents`)
        .set('Authorization', basic(tenant.test))
        .field('type', 'passport');
      expectSvcError(noFile, 'SVC-400-002', { param: 'file' });
      const json = await ctx
        .http()
        .post(`/v1/investors/${investor.id}/documents`)
        .set('Authorization', basic(tenant.test))
        .send({ type: 'passport' });
      expectSvcError(json, 'SVC-400-002', { param: 'file' });
      const otherField = await ctx
        .http()
        .post(`/v1/investors/${investor.id}/documents`)
        .set('Authorization', basic(tenant.test))
        .field('type', 'passport')
        .attach('document', PDF, { filename: 'a.pdf', contentType: 'application/pdf' });
      expectSvcError(otherField, 'SVC-400-001', { param: 'document' });
    });

    it('uploads to an unknown investor or a closed account are refused', async () => {
      const file = { bytes: PDF, name: 'a.pdf', contentType: 'application/pdf' };
      expectSvcError(
        await upload(ctx, tenant.test, 'inv_AAAAAAAAAAAAAAAAAAAAAA', 'passport', file),
        'SVC-404-001',
      );
      const closing = await createInvestor(ctx, tenant.test);
      await ctx
        .http()
        .post(`/v1/accounts/${closing.account_id}/actions/close`)
        .set('Authorization', basic(tenant.test));
      expectSvcError(await upload(ctx, tenant.test, closing.id, 'passport', file), 'SVC-409-001');
    });
  });

  it('lists newest first with cursor pagination and type/status filters', async () => {
    const own = await createInvestor(ctx, tenant.test);
    const ids: string[] = [];
    for (const type of ['passport', 'proof_of_address', 'w9']) {
      ids.push(
        (
          await upload(ctx, tenant.test, own.id, type, {
            bytes: PDF,
            name: `${type}.pdf`,
            contentType: 'application/pdf',
          })
        ).body.id,
      );
    }
    const page = await get(tenant.test, `/v1/investors/${own.id}/documents?limit=2`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      object: 'list',
      url: `/v1/investors/${own.id}/documents`,
      has_more: true,
    });
    expect(page.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const rest = await get(tenant.test, `/v1/investors/${own.id}/documents?limit=2&starting_after=${ids[1]}`);
    expect(rest.body).toMatchObject({ has_more: false });
    expect(rest.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    const newer = await get(tenant.test, `/v1/investors/${own.id}/documents?ending_before=${ids[0]}`);
    expect(newer.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[1]]);
    const byType = await get(tenant.test, `/v1/investors/${own.id}/documents?type=w9`);
    expect(byType.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2]]);
    const approved = await get(tenant.test, `/v1/investors/${own.id}/documents?status=approved`);
    expect(approved.body.data).toEqual([]);
    expectSvcError(await get(tenant.test, `/v1/investors/${own.id}/documents?type=selfie`), 'SVC-400-001', {
      param: 'type',
    });
  });

  it("another investor's, tenant's or mode's documents answer 404", async () => {
    const own = await createInvestor(ctx, tenant.test);
    const other = await createInvestor(ctx, tenant.test);
    const doc = (
      await upload(ctx, tenant.test, own.id, 'passport', {
        bytes: PNG,
        name: 'p.png',
        contentType: 'image/png',
      })
    ).body;
    const key = await investorKey(ctx, tenant.test, own.id);
    const otherKey = await investorKey(ctx, tenant.test, other.id);
    const stranger = await ctx.createTenant();

    expect((await get(key, `/v1/investors/${own.id}/documents/${doc.id}`)).status).toBe(200);
    expect(Buffer.compare((await download(key, own.id, doc.id)).body, PNG)).toBe(0);
    expect(
      (await upload(ctx, key, own.id, 'id_back', { bytes: PNG, name: 'b.png', contentType: 'image/png' }))
        .status,
    ).toBe(201);

    for (const creds of [otherKey, stranger.test, tenant.live]) {
      expectSvcError(await get(creds, `/v1/investors/${own.id}/documents`), 'SVC-404-001');
      expectSvcError(await get(creds, `/v1/investors/${own.id}/documents/${doc.id}`), 'SVC-404-001');
      expectSvcError(await get(creds, `/v1/investors/${own.id}/documents/${doc.id}/download`), 'SVC-404-001');
    }
    // The right document under the wrong investor is not found either.
    expectSvcError(await get(tenant.test, `/v1/investors/${other.id}/documents/${doc.id}`), 'SVC-404-001');
    expectSvcError(
      await get(tenant.test, `/v1/investors/${other.id}/documents/${doc.id}/download`),
      'SVC-404-001',
    );
    expectSvcError(
      await get(tenant.test, `/v1/investors/${own.id}/documents/doc_AAAAAAAAAAAAAAAAAAAAAA`),
      'SVC-404-001',
    );
    expectSvcError(await get(tenant.test, `/v1/investors/${own.id}/documents/../../accounts`), 'SVC-404-001');
    expect((await eventsOf(ctx, stranger)).length).toBe(0);
  });

  const get = (creds: TestCredentials, path: string) =>
    ctx.http().get(path).set('Authorization', basic(creds));
  const download = (creds: TestCredentials, investorId: string, documentId: string) =>
    get(creds, `/v1/investors/${investorId}/documents/${documentId}/download`).buffer(true).parse(binary);
});

// A small limit keeps the oversize case fast; the default (10 MB) comes from the configuration.
const MAX_BYTES = 256 * 1024;

/** Every file under the storage directory, with its bytes. */
function storedFiles(root: string): Array<{ name: string; bytes: Buffer }> {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ name: e.name, bytes: readFileSync(join(e.parentPath, e.name)) }));
}
