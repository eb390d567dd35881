import { ServiceError } from 'src/core/errors/service-error';

/** 415 SVC-415-001 naming Content-Type: a request body that is not JSON in UTF-8. */
export class UnsupportedMediaTypeError extends ServiceError {
  private constructor(message: string) {
    super('SVC-415-001', message, 'Content-Type');
  }

  /** The body's media type is not JSON. */
  static contentType(media: string): UnsupportedMediaTypeError {
    return new UnsupportedMediaTypeError(
      `Unsupported content type '${media}'. Send the body as application/json.`,
    );
  }

  /** The body's charset is not UTF-8. */
  static charset(charset: string): UnsupportedMediaTypeError {
    return new UnsupportedMediaTypeError(
      `Unsupported charset '${charset}'. Send JSON in UTF-8 (charset=utf-8, or no charset).`,
    );
  }
}
