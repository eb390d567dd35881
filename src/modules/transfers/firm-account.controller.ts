import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TenantLevel } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { AccountsService } from 'src/modules/accounts/accounts.service';
import { WalletBalanceDto } from 'src/modules/transfers/dto/wallet-transaction.dto';
import { TransfersService } from 'src/modules/transfers/transfers.service';

export class FirmAccountDto {
  @ApiProperty({ enum: ['firm_account'], example: 'firm_account' })
  object: 'firm_account';

  @ApiProperty({ format: 'uuid', example: '0b7d4c1e-8f2a-4e5b-9c3d-6a1f2e3d4c5b' })
  account_id: string;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: [WalletBalanceDto], description: 'As GET /v1/wallet/accounts/{account_id}/balances.' })
  balances: WalletBalanceDto[];
}

/** The tenant's firm account of the key's mode (tenant-level keys only). */
@ApiTags('Firm account')
@TenantLevel()
@Controller('firm-account')
export class FirmAccountController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly transfers: TransfersService,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'getFirmAccount',
    summary: 'The firm account',
    description:
      'One per tenant and mode, opened ACTIVE with the tenant: an investment account with `account_type` `firm` and ' +
      'no investor. Its `account_id` works on the wallet routes (funding, withdrawals, balances, transactions, ' +
      'conversions) and the account-style trading reads; it orders through POST /v1/firm-account/orders, links bank ' +
      'accounts through /v1/firm-account/funding-sources, and is a side of journals (POST /v1/journals). ' +
      'Tenant-level keys only: investor keys get 403 SVC-403-001 here and 404 on its account_id.',
  })
  @ApiOkResponse({ type: FirmAccountDto })
  async get(@CurrentPrincipal() principal: Principal): Promise<FirmAccountDto> {
    const account = await this.accounts.findFirmAccount(principal);
    return {
      object: 'firm_account',
      account_id: account.id,
      livemode: principal.livemode,
      balances: await this.transfers.balances(principal, account.id),
    };
  }
}
