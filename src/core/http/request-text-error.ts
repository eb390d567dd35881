import { ServiceError } from 'src/core/errors/service-error';
import { describeTextProblem, TextProblem } from 'src/core/http/request-text';

/** 400 SVC-400-001 naming the field: request input with a TextProblem (bad text, too wide, too deep). */
export class RequestTextError extends ServiceError {
  constructor(problem: TextProblem) {
    super('SVC-400-001', describeTextProblem(problem), problem.param);
  }
}
