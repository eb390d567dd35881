import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RequestLogEntity } from 'src/modules/request-logs/request-log.entity';
import { RequestLogPurgeModule } from 'src/modules/request-logs/request-log-purge';
import { RequestLogRecorder } from 'src/modules/request-logs/request-log-recorder.service';
import { RequestLogsController } from 'src/modules/request-logs/request-logs.controller';
import { RequestLogsService } from 'src/modules/request-logs/request-logs.service';

/** Request logs: recorded by RequestLogRecorder's middleware (app.setup), read by the routes here. */
@Module({
  imports: [TypeOrmModule.forFeature([RequestLogEntity]), RequestLogPurgeModule],
  controllers: [RequestLogsController],
  providers: [RequestLogsService, RequestLogRecorder],
  exports: [RequestLogRecorder],
})
export class RequestLogsModule {}
