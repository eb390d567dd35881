import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ObjectNotFoundError, ObjectTooLargeError } from 'src/core/storage/document-storage';
import { FilesystemDocumentStorage } from 'src/core/storage/filesystem-document-storage';

describe('FilesystemDocumentStorage', () => {
  let root: string;
  let storage: FilesystemDocumentStorage;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'doc-storage-'));
    storage = new FilesystemDocumentStorage(root);
  });

  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stores bytes under a generated key and streams them back unchanged, with size, hash and head', async () => {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100_000, 7)]);
    const stored = await storage.put(Readable.from([bytes.subarray(0, 3), bytes.subarray(3)]));
    expect(stored.key).toMatch(/^[a-f0-9]{32}$/);
    expect(stored.size).toBe(bytes.length);
    expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(stored.head).toEqual(bytes.subarray(0, 16));
    expect(await readAll(await storage.getStream(stored.key))).toEqual(bytes);
    expect(await filesUnder(root)).toEqual([stored.key]);
  });

  it('refuses content over the limit and leaves no file behind', async () => {
    await expect(storage.put(Readable.from([Buffer.alloc(11)]), { maxBytes: 10 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    expect(await filesUnder(root)).toEqual([]);
  });

  it('answers unknown and malformed keys as not found, and deletes idempotently', async () => {
    const stored = await storage.put(Readable.from([Buffer.from('x')]));
    await storage.delete(stored.key);
    await storage.delete(stored.key);
    await expect(storage.getStream(stored.key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(storage.getStream('../../etc/passwd')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}
