import { Module } from '@nestjs/common';
import { TestClockController } from 'src/core/clock/test-clock.controller';
import { TestClockService } from 'src/core/clock/test-clock.service';

/** The test clock helper routes (API only); the clock itself is ClockModule, the jobs SchedulerModule. */
@Module({
  controllers: [TestClockController],
  providers: [TestClockService],
})
export class TestClockModule {}
