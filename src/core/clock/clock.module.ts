import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClockService } from 'src/core/clock/clock.service';
import { FrozenClocks } from 'src/core/clock/frozen-clocks';
import { TestClockEntity } from 'src/core/clock/test-clock.entity';
import { TestClockRepository } from 'src/core/clock/test-clock.repository';

/** The clock every module asks for "now" (API, worker and CLI processes alike). */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([TestClockEntity])],
  providers: [TestClockRepository, FrozenClocks, ClockService],
  exports: [ClockService, FrozenClocks, TestClockRepository],
})
export class ClockModule {}
