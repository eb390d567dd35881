import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EventEntity } from 'src/core/events/event.entity';
import { EventNotifications } from 'src/core/events/event-notifications';
import { EventsService } from 'src/core/events/events.service';

/** The outbox write side and this process's notifications of committed events, available to every module. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([EventEntity])],
  providers: [EventsService, EventNotifications],
  exports: [EventsService, EventNotifications],
})
export class EventsCoreModule {}
