import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from 'src/core/config/app-config.service';
import { AppLogger, createPino, flushLogs } from 'src/core/logging/app-logger';

/**
 * Structured JSON logs through pino. The request line is written by requestLogLine
 * (called by the entry middleware, src/core/http/request-entry.ts); AppLogger carries framework and application messages.
 */
@Global()
@Module({
  providers: [
    {
      provide: AppLogger,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new AppLogger(createPino(config.get('LOG_LEVEL'))),
    },
  ],
  exports: [AppLogger],
})
export class LoggingModule implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    try {
      flushLogs();
    } catch {
      // stdout already closed: nothing left to write to
    }
  }
}
