import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';
import { loggableQueryError, redactDatabaseMessage } from 'src/core/logging/safe-errors';

/**
 * TypeORM's logger for this service: a failed query is logged with its text (placeholders
 * only), SQLSTATE, constraint, table and column, and never the parameter values bound to it,
 * which hold personal data and secrets (tax id, e-mail, address, key hashes, ciphertexts).
 * Successful queries are not logged. Lines go through the application's logger (pino).
 */
export class SafeQueryLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('Database');

  logQuery(): void {
    // Every query passes here; logging them would put their parameters in the log.
  }

  logQueryError(error: string | Error, query: string): void {
    if (typeof error === 'string') {
      this.logger.warn({ query, message: redactDatabaseMessage(error, []) });
      return;
    }
    this.logger.warn({ queryError: loggableQueryError(error, query) });
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ query, durationMs: time, message: 'slow query' });
  }

  logSchemaBuild(): void {
    // Migration steps: the database module logs which migrations it applied, once.
  }

  logMigration(): void {
    // As logSchemaBuild.
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = typeof message === 'string' ? message : 'TypeORM notice';
    if (level === 'warn') {
      this.logger.warn(text);
    } else {
      this.logger.log(text);
    }
  }
}
