import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ErrorRenderer } from 'src/core/errors/error-renderer';

/** The single exception filter: every failure leaves the service through ErrorRenderer. */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly renderer: ErrorRenderer) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.renderer.render(exception, http.getRequest<Request>(), http.getResponse<Response>());
  }
}
