import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { ListEnvelope, listUrl } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import {
  Idempotency,
  IdempotencyInTransaction,
  IdempotentRequest,
} from 'src/core/idempotency/idempotent-request';
import {
  CreateJournalBatchDto,
  CreateJournalDto,
  JournalDto,
  JournalsQuery,
} from 'src/modules/journals/dto/journal.dto';
import { JournalsService } from 'src/modules/journals/journals.service';
import { CreateJournalBatch } from 'src/modules/journals/use-cases/create-journal-batch.use-case';
import { CreateJournal } from 'src/modules/journals/use-cases/create-journal.use-case';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const RULES =
  'Both accounts belong to the tenant\u2019s mode of the key (another tenant\u2019s or mode\u2019s: 404) and are ACTIVE ' +
  '(422 SVC-422-001); one side may be the firm account. A JNLC moves cash at once (available to trade ' +
  'immediately); above `journal_limit_per_entry` (default 10,000), or taking what an account other than the firm ' +
  'account receives by JNLC on one New York business day of the clock above `journal_limit_per_day_per_account` ' +
  '(default 50,000): 422 SVC-422-008 naming `amount`; above the source\u2019s available cash: 422 SVC-422-002 naming ' +
  '`amount`. A JNLS moves units with their cost basis per share (the target\u2019s average cost blends them in); more ' +
  'than the source\u2019s unreserved units: 422 SVC-422-003 naming `quantity`. Emits `journal.executed`.';

@ApiTags('Journals')
@TenantLevel()
@Controller('journals')
export class JournalsController {
  constructor(
    private readonly create: CreateJournal,
    private readonly createBatch: CreateJournalBatch,
    private readonly journals: JournalsService,
  ) {}

  @Post()
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'createJournal',
    summary: 'Journal cash or securities between accounts',
    description: `\`entry_type\` \`JNLC\` (\`amount\`, \`currency\`) or \`JNLS\` (\`symbol\`, \`quantity\`). ${RULES}`,
  })
  @ApiCreatedResponse({ type: JournalDto })
  @ApiErrors(
    'SVC-400-001',
    'SVC-400-002',
    'SVC-404-001',
    'SVC-422-001',
    'SVC-422-002',
    'SVC-422-003',
    'SVC-422-008',
  )
  post(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateJournalDto,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<JournalDto> {
    return this.create.execute(principal, body, idem);
  }

  @Post('batch')
  @IdempotencyInTransaction()
  @ApiOperation({
    operationId: 'createJournalBatch',
    summary: 'Journal cash from one account to many',
    description:
      `Up to 1,000 JNLC entries (\`to_account_id\`, \`amount\`) from one \`from_account_id\` in one \`currency\`. Each ` +
      'entry executes or is rejected on its own, in order: the answer lists every journal, rejected ones with ' +
      '`status` `rejected` and a `reject_reason` giving the code and message the entry would have answered alone. ' +
      `The source and the currency apply to all: an unknown source is 404, an inactive one 422 SVC-422-001. ${RULES}`,
  })
  @ApiCreatedResponse({ type: ListEnvelopeOf(JournalDto, '/v1/journals/batch') })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-422-001')
  batch(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateJournalBatchDto,
    @Req() req: Request,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<ListEnvelope<JournalDto>> {
    return this.createBatch.execute(principal, body, listUrl(req), idem);
  }

  @Get()
  @ReadsMayLag()
  @ApiOperation({
    operationId: 'listJournals',
    summary: 'List journals',
    description:
      'Newest first (clock time), executed and rejected: filters `account_id` (from or to), `entry_type`, ' +
      '`created_gte`, `created_lt`; `limit` 1 to 100 (default 50); cursor `starting_after` / `ending_before`.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(JournalDto, '/v1/journals') })
  @ApiErrors('SVC-400-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: JournalsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<JournalDto>> {
    return this.journals.list(principal, query, listUrl(req));
  }

  @Get(':journal_id')
  @ApiParam({ name: 'journal_id', example: 'jnl_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  @ApiOperation({
    operationId: 'getJournal',
    summary: 'Retrieve a journal',
    description: 'One journal of the key\u2019s tenant and mode, executed or rejected (another\u2019s: 404).',
  })
  @ApiOkResponse({ type: JournalDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('journal_id') id: string): Promise<JournalDto> {
    return this.journals.get(principal, id);
  }
}
