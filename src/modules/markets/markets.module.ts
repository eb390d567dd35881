import { Module } from '@nestjs/common';
import { MarketsController } from 'src/modules/markets/markets.controller';
import { MarketsService } from 'src/modules/markets/markets.service';

/** Markets, clocks and trading calendars over HTTP; the rules live in ./calendar. */
@Module({
  controllers: [MarketsController],
  providers: [MarketsService],
  exports: [MarketsService],
})
export class MarketsModule {}
