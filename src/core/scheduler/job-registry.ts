import { Injectable } from '@nestjs/common';
import type { JobHandler } from 'src/core/scheduler/job-types';

/** Handlers by job kind. Modules register theirs at start (`onModuleInit`). */
@Injectable()
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();

  register(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) {
      throw new Error(`A handler for job kind '${kind}' is already registered.`);
    }
    this.handlers.set(kind, handler);
  }

  get(kind: string): JobHandler {
    const handler = this.handlers.get(kind);
    if (!handler) {
      throw new Error(`No handler is registered for job kind '${kind}' in this process.`);
    }
    return handler;
  }
}
