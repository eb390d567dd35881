import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isInspectedBody } from 'src/core/http/json-body';
import {
  findTextProblem,
  MAX_JSON_DEPTH,
  MAX_PATH_PARAM_LENGTH,
  MAX_QUERY_VALUE_LENGTH,
} from 'src/core/http/request-text';
import { RequestTextError } from 'src/core/http/request-text-error';

/**
 * Middleware for every request with a query string: each query parameter is checked for NUL
 * bytes, lone surrogates and a length over MAX_QUERY_VALUE_LENGTH (400 SVC-400-001 naming it),
 * whichever decorator later reads it.
 */
export function queryTextCheck(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const problem = req.url.includes('?')
      ? findTextProblem(req.query, undefined, MAX_JSON_DEPTH, MAX_QUERY_VALUE_LENGTH)
      : undefined;
    next(problem ? new RequestTextError(problem) : undefined);
  };
}

/**
 * Global pipe, ahead of validation: path parameters (also at most MAX_PATH_PARAM_LENGTH
 * characters) and non-JSON bodies (multipart form fields) a handler receives are checked for NUL
 * bytes, lone surrogates and prototype keys (400
 * SVC-400-001 naming the field), so no route hands PostgreSQL text it refuses. JSON bodies were
 * checked while parsed and query strings by queryTextCheck.
 */
@Injectable()
export class RequestTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'param' || (metadata.type === 'body' && !isInspectedBody(value))) {
      const maxLength = metadata.type === 'param' ? MAX_PATH_PARAM_LENGTH : Infinity;
      const problem = findTextProblem(value, metadata.data, MAX_JSON_DEPTH, maxLength);
      if (problem) {
        throw new RequestTextError(problem);
      }
    }
    return value;
  }
}
