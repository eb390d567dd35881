import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsController } from 'src/modules/events/events.controller';
import { EventsReadService } from 'src/modules/events/events.service';

/** GET /v1/events and /v1/events/{id}: the outbox, readable by partners. */
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  controllers: [EventsController],
  providers: [EventsReadService],
  exports: [EventsReadService],
})
export class EventsModule {}
