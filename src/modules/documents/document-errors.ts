import { ServiceError } from 'src/core/errors/service-error';

/** 413 SVC-413-001 naming file: the uploaded document is larger than DOCUMENT_MAX_BYTES. */
export class FileTooLargeError extends ServiceError {
  constructor(maxBytes: number) {
    super('SVC-413-001', `The file exceeds the upload limit of ${maxBytes} bytes.`, 'file');
  }
}
