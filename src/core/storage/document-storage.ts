import type { Readable } from 'node:stream';

/** What a completed write produced: the server-chosen key, the size and the SHA-256 of the bytes. */
export interface StoredObject {
  key: string;
  size: number;
  /** Lower-case hex SHA-256 of the stored bytes. */
  sha256: string;
  /** The first bytes of the content (up to 16), for signature (magic byte) checks. */
  head: Buffer;
}

/** Thrown by `put` when the content exceeds `maxBytes`; nothing is kept. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The content exceeds ${maxBytes} bytes.`);
  }
}

/**
 * Where uploaded documents live. Keys are chosen by the storage, never derived from user
 * input. The filesystem implementation is the default; an S3-compatible store implements
 * the same three calls.
 */
export abstract class DocumentStorage {
  /** Stores the stream under a new key; the object appears only once fully written. */
  abstract put(content: Readable, options?: { maxBytes?: number }): Promise<StoredObject>;

  /** Streams a stored object; rejects with `ObjectNotFoundError` for an unknown key. */
  abstract getStream(key: string): Promise<Readable>;

  /** Removes an object; removing an absent key is not an error. */
  abstract delete(key: string): Promise<void>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}.`);
  }
}
