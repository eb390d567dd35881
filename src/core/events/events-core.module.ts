import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import { EventsService } from 'src/core/events/events.service';

/** The outbox write side, available to every module. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  providers: [EventsService],
  exports: [EventsService],
})
export class EventsCoreModule {}
