import type { INestApplicationContext } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { CoreModule } from 'src/core/core.module';
import { TestClockModule } from 'src/core/clock/test-clock.module';
import { TestClockService } from 'src/core/clock/test-clock.service';
import { QueueModule } from 'src/core/queue/queue.module';
import { SchedulerModule } from 'src/core/scheduler/scheduler.module';
import { ComplianceModule } from 'src/modules/compliance/compliance.module';
import { ComplianceService } from 'src/modules/compliance/compliance.service';
import type { CreateFundingSourceDto } from 'src/modules/funding-sources/dto/funding-source.dto';
import { FundingSourcesModule } from 'src/modules/funding-sources/funding-sources.module';
import { FundingSourcesService } from 'src/modules/funding-sources/funding-sources.service';
import type { CreateInvestorDto } from 'src/modules/investors/dto/create-investor.dto';
import { InvestorsModule } from 'src/modules/investors/investors.module';
import { InvestorsService } from 'src/modules/investors/investors.service';
import { LedgerService } from 'src/modules/ledger/ledger.service';
import type { TransferEntity, TransferType } from 'src/modules/transfers/entities/transfer.entity';
import { TransfersModule } from 'src/modules/transfers/transfers.module';
import { TransfersService } from 'src/modules/transfers/transfers.service';
import { InitiateTransfer } from 'src/modules/transfers/use-cases/initiate-transfer.use-case';
import { investorBody } from '../investors/fixtures';
import { SETTLING_ACCOUNT } from './factories';

/**
 * The states money specs start from, reached through the modules' own services (no HTTP): an
 * ACTIVE investor, a linked bank account, a deposit. `MONEY_MODULES` boots what those services
 * need: the core (idempotent transactions, events, clock), the queue and scheduler (transfers and
 * cash sweep schedule their jobs; nothing consumes them here), the test clock helper (a move runs
 * the tenant's due jobs in this process), investors, KYC, bank accounts and transfers.
 */
export const MONEY_MODULES = [
  CoreModule,
  QueueModule.forRoot({ consumers: false }),
  SchedulerModule,
  TestClockModule,
  InvestorsModule,
  ComplianceModule,
  FundingSourcesModule,
  TransfersModule,
];

/** What the auth guard resolves for a tenant's test secret key. */
export function testKeyOf(tenantId: string): Principal {
  return {
    tenantId,
    livemode: false,
    keyId: 'apk_money_states',
    investorId: null,
    products: new Set(),
    fixedIncomeEnabled: false,
    method: 'basic',
  };
}

export class MoneyStates {
  constructor(private readonly app: INestApplicationContext) {}

  /** Freezes the tenant's test clock (business time of everything below). */
  async freezeClock(principal: Principal, at: Date): Promise<void> {
    await this.app.get(TestClockService).move(principal, { frozen_time: at.toISOString() }, undefined);
  }

  /** Moves the clock forward, running every job of the tenant falling due on the way. */
  async advanceClock(principal: Principal, seconds: number): Promise<void> {
    await this.app.get(TestClockService).move(principal, { advance_seconds: seconds }, undefined);
  }

  /** A new investor whose account is ACTIVE (KYC approved by the test helper's service). */
  async activeInvestor(principal: Principal): Promise<{ investorId: string; accountId: string }> {
    const investor = await this.app
      .get(InvestorsService)
      .create(principal, investorBody() as CreateInvestorDto, undefined);
    await this.app.get(ComplianceService).forceApprove(principal, investor.id, undefined);
    return { investorId: investor.id, accountId: investor.account_id };
  }

  /** Links a US bank account of the investor (the settling test number unless given); its id. */
  async linkBank(
    principal: Principal,
    investorId: string,
    accountNumber = SETTLING_ACCOUNT,
  ): Promise<string> {
    const body = {
      type: 'bank_account',
      account_holder_name: 'Ada Obi',
      account_number: accountNumber,
      routing_number: '110000000',
      currency: 'USD',
      country: 'US',
    } as CreateFundingSourceDto;
    return (await this.app.get(FundingSourcesService).create(principal, investorId, body, undefined)).id;
  }

  /** A USD deposit or withdrawal through the use case the wallet route calls; the new row. */
  initiate(
    principal: Principal,
    type: TransferType,
    accountId: string,
    bankId: string,
    amount: string,
  ): Promise<TransferEntity> {
    return this.app.get(InitiateTransfer).execute(
      {
        principal,
        type,
        target: { accountId },
        amount,
        currency: 'USD',
        fundingSourceId: bankId,
        params: {
          currency: 'funding_details.fiat_currency',
          fundingSource: 'funding_details.bank_account_id',
        },
      },
      undefined,
      (transfer) => transfer,
    );
  }

  /** A deposit settled at once (the settle test helper's service), at the clock's now. */
  async depositSettled(principal: Principal, accountId: string, bankId: string, amount: string) {
    const deposit = await this.initiate(principal, 'deposit', accountId, bankId, amount);
    await this.app
      .get(TransfersService)
      .finishNow(principal, deposit.transaction_id, { settle: true }, undefined);
    return deposit;
  }

  /** The account's USD figures as the wallet balance shows them (2 decimals), or zeros. */
  async balance(principal: Principal, accountId: string) {
    const found = (await this.app.get(LedgerService).balances(principal, accountId)).find(
      (b) => b.currency === 'USD',
    );
    const text = (value: { toFixed(n: number): string } | undefined) => value?.toFixed(2) ?? '0.00';
    return {
      cash: text(found?.cash),
      available: text(found?.available),
      pending_deposits: text(found?.pendingDeposits),
      withdrawal_holds: text(found?.withdrawalHolds),
    };
  }
}
