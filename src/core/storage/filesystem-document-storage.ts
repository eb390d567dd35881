import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DocumentStorage,
  ObjectNotFoundError,
  ObjectTooLargeError,
  StoredObject,
} from 'src/core/storage/document-storage';

const KEY_PATTERN = /^[a-f0-9]{32}$/;
const HEAD_BYTES = 16;

/** Counts, hashes and keeps the first bytes of what flows through; fails past the size limit. */
class Measure extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  head = Buffer.alloc(0);

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(new ObjectTooLargeError(this.maxBytes));
      return;
    }
    if (this.head.length < HEAD_BYTES) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }
}

/**
 * Documents on the local filesystem under STORAGE_DIR: `<root>/<first two key chars>/<key>`.
 * The key is 128 random bits in hex, generated here; keys from callers are checked against
 * that shape before any path is built. A write goes to a temporary name in the same
 * directory, is flushed, then renamed, so a reader never sees a partial file.
 */
export class FilesystemDocumentStorage extends DocumentStorage {
  private readonly root: string;

  constructor(root: string) {
    super();
    this.root = resolve(root);
  }

  async put(content: Readable, options: { maxBytes?: number } = {}): Promise<StoredObject> {
    const key = randomBytes(16).toString('hex');
    const dir = join(this.root, key.slice(0, 2));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const temp = join(dir, `.${key}.${randomBytes(4).toString('hex')}.tmp`);
    const measure = new Measure(options.maxBytes ?? Number.MAX_SAFE_INTEGER);
    try {
      await pipeline(content, measure, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      const handle = await open(temp, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.path(key));
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    return { key, size: measure.size, sha256: measure.hash.digest('hex'), head: measure.head };
  }

  async getStream(key: string): Promise<Readable> {
    const path = this.path(key);
    const stream = createReadStream(path);
    await new Promise<void>((ready, fail) => {
      stream.once('open', () => ready());
      stream.once('error', (err: NodeJS.ErrnoException) =>
        fail(err.code === 'ENOENT' ? new ObjectNotFoundError(key) : err),
      );
    });
    return stream;
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  private path(key: string): string {
    if (!KEY_PATTERN.test(key)) {
      throw new ObjectNotFoundError(key);
    }
    return join(this.root, key.slice(0, 2), key);
  }
}
