import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsController } from 'src/modules/events/events.controller';
import { EventsReadService } from 'src/modules/events/events.service';
import { EventStreamController } from 'src/modules/events/stream/event-stream.controller';
import { EventStreamReader } from 'src/modules/events/stream/event-stream.reader';
import { EventStreamsService } from 'src/modules/events/stream/event-streams.service';
import { StreamSlots } from 'src/modules/events/stream/stream-slots';

/**
 * GET /v1/events and /v1/events/{id}: the outbox, readable by partners; GET /v1/events/stream: the
 * same events live, over Server-Sent Events (its controller first, so `stream` is not taken for an id).
 */
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  controllers: [EventStreamController, EventsController],
  providers: [EventsReadService, EventStreamReader, EventStreamsService, StreamSlots],
  exports: [EventsReadService],
})
export class EventsModule {}
