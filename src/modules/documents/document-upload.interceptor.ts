import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError, StorageEngine } from 'multer';
import { Observable } from 'rxjs';
import { catchError } from 'rxjs/operators';
import { AppConfig } from 'src/core/config/app-config.service';
import { ServiceError } from 'src/core/errors/service-error';
import { DocumentStorage, ObjectTooLargeError, StoredObject } from 'src/core/storage/document-storage';
import { FileTooLargeError } from 'src/modules/documents/document-errors';

/** The multipart file once streamed into storage. */
export type UploadedDocumentFile = Express.Multer.File & { stored: StoredObject };

/** Streams the one file straight into DocumentStorage (hashing as it writes), never into memory. */
class StreamingStorageEngine implements StorageEngine {
  constructor(
    private readonly storage: DocumentStorage,
    private readonly maxBytes: number,
  ) {}

  _handleFile(
    _req: Request,
    file: Express.Multer.File,
    callback: (error?: unknown, info?: Partial<UploadedDocumentFile>) => void,
  ): void {
    this.storage.put(file.stream, { maxBytes: this.maxBytes }).then(
      (stored) => callback(null, { stored, size: stored.size }),
      (err: unknown) => callback(err),
    );
  }

  _removeFile(
    _req: Request,
    file: Partial<UploadedDocumentFile>,
    callback: (error: Error | null) => void,
  ): void {
    const key = file.stored?.key;
    if (!key) {
      callback(null);
      return;
    }
    this.storage.delete(key).then(
      () => callback(null),
      (err: Error) => callback(err),
    );
  }
}

/**
 * Parses `multipart/form-data` with the document in the field `file` (at most
 * DOCUMENT_MAX_BYTES: 413 SVC-413-001 beyond) and the other form fields into the body. If the
 * request then fails for any reason, the stored bytes are deleted.
 */
@Injectable()
export class DocumentUploadInterceptor implements NestInterceptor {
  private readonly maxBytes: number;
  private readonly parse: RequestHandler;

  constructor(
    config: AppConfig,
    private readonly storage: DocumentStorage,
  ) {
    this.maxBytes = config.get('DOCUMENT_MAX_BYTES');
    this.parse = multer({
      storage: new StreamingStorageEngine(storage, this.maxBytes),
      // File names are read as UTF-8, as browsers and HTTP clients send them.
      defParamCharset: 'utf8',
      limits: { fileSize: this.maxBytes, files: 1, fields: 60, fieldSize: 1024, parts: 62 },
    }).single('file');
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    await new Promise<void>((resolve, reject) =>
      this.parse(req, res, (err?: unknown) => (err ? reject(this.toServiceError(err)) : resolve())),
    );
    const stored = (req.file as UploadedDocumentFile | undefined)?.stored;
    return next.handle().pipe(
      catchError(async (err: unknown) => {
        if (stored) {
          await this.storage.delete(stored.key).catch(() => undefined);
        }
        throw err;
      }),
    );
  }

  private toServiceError(err: unknown): unknown {
    if (err instanceof ServiceError) {
      return err;
    }
    if (err instanceof ObjectTooLargeError) {
      return new FileTooLargeError(this.maxBytes);
    }
    if (err instanceof MulterError) {
      switch (err.code) {
        case 'LIMIT_FILE_SIZE':
          return new FileTooLargeError(this.maxBytes);
        case 'LIMIT_UNEXPECTED_FILE':
          return ServiceError.invalid(err.field ?? 'file', `Send the document in the form field 'file'.`);
        case 'LIMIT_FILE_COUNT':
          return ServiceError.invalid('file', 'Send exactly one file per request.');
        default:
          // No assertUnreachable: multer raises more codes at run time than its type lists
          // (LIMIT_FIELD_NESTING, INVALID_FIELD_NAME, ...), and each is the client's fault (400).
          return ServiceError.invalid(err.field ?? 'file', `Invalid multipart form: ${err.message}.`);
      }
    }
    if ((err as NodeJS.ErrnoException | null)?.syscall) {
      return err; // the storage failed, not the request: 500
    }
    return ServiceError.invalid('file', 'The multipart/form-data body could not be parsed.');
  }
}
