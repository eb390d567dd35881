import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ServiceError } from 'src/core/errors/service-error';
import { isInspectedBody } from 'src/core/http/json-body';
import { describeTextProblem, findTextProblem, TextProblem } from 'src/core/http/request-text';

function invalid(problem: TextProblem): ServiceError {
  return new ServiceError('SVC-400-001', describeTextProblem(problem), problem.param);
}

/**
 * Middleware for every request with a query string: each query parameter is checked for NUL
 * bytes and lone surrogates (400 SVC-400-001 naming it), whichever decorator later reads it.
 */
export function queryTextCheck(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const problem = req.url.includes('?') ? findTextProblem(req.query) : undefined;
    next(problem ? invalid(problem) : undefined);
  };
}

/**
 * Global pipe, ahead of validation: path parameters and non-JSON bodies (multipart form fields)
 * a handler receives are checked for NUL bytes, lone surrogates and prototype keys (400
 * SVC-400-001 naming the field), so no route hands PostgreSQL text it refuses. JSON bodies were
 * checked while parsed and query strings by queryTextCheck.
 */
@Injectable()
export class RequestTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'param' || (metadata.type === 'body' && !isInspectedBody(value))) {
      const problem = findTextProblem(value, metadata.data);
      if (problem) {
        throw invalid(problem);
      }
    }
    return value;
  }
}
