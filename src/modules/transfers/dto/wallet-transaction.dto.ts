import { ApiProperty } from '@nestjs/swagger';
import {
  TRANSFER_METHODS,
  TRANSFER_STATUSES,
  TRANSFER_TYPES,
} from 'src/modules/transfers/entities/transfer.entity';

const ISO = { format: 'date-time', example: '2026-03-02T15:30:00.000Z' } as const;
const ISO_OR_NULL = { type: String, format: 'date-time', nullable: true, example: null } as const;

export class WalletFundingDetailsDto {
  @ApiProperty({ enum: ['fiat'], example: 'fiat' })
  funding_type: 'fiat';

  @ApiProperty({ example: 'USD' })
  fiat_currency: string;

  @ApiProperty({ example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  bank_account_id: string;

  @ApiProperty({ enum: TRANSFER_METHODS, example: 'ach' })
  method: string;
}

/** Spec, Wallet transaction (account-style record), plus the id of its envelope view. */
export class WalletTransactionDto {
  @ApiProperty({ example: 'txn_8Wm2cQx4Lr7Tb1Nv5Zk9Pa' })
  transaction_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ enum: TRANSFER_TYPES, example: 'deposit' })
  type: string;

  @ApiProperty({
    enum: TRANSFER_STATUSES,
    description: 'pending → processing → settled or failed; pending → canceled on request.',
    example: 'pending',
  })
  status: string;

  @ApiProperty({ description: 'Decimal string in the currency\u2019s minor units.', example: '250.00' })
  amount: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ enum: ['fiat'], example: 'fiat' })
  funding_type: string;

  @ApiProperty({ type: WalletFundingDetailsDto })
  funding_details: WalletFundingDetailsDto;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null when none was given.',
    example: 'Initial funding',
  })
  description: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null when none was given.',
    example: 'partner-tx-1029',
  })
  external_reference_id: string | null;

  @ApiProperty({ description: 'The tenant\u2019s transfer fee (default zero).', example: '0.00' })
  fee: string;

  @ApiProperty({
    description: 'Amount after fees: credited (deposit) or sent to the bank (withdrawal).',
    example: '250.00',
  })
  net_amount: string;

  @ApiProperty({ ...ISO, description: 'Clock time (the tenant\u2019s test clock in test mode).' })
  created_at: string;

  @ApiProperty(ISO_OR_NULL)
  settled_at: string | null;

  @ApiProperty(ISO_OR_NULL)
  failed_at: string | null;

  @ApiProperty(ISO_OR_NULL)
  canceled_at: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  failure_reason: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The deposit view (dep_...), for deposits.',
    example: 'dep_Qv3nL8cT2mXa9Rb4Wk7ZpE',
  })
  deposit_id: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The withdrawal view (wdr_...), for withdrawals.',
    example: null,
  })
  withdrawal_id: string | null;
}

/** One currency of an account's wallet (bare array item). */
export class WalletBalanceDto {
  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ description: 'Settled cash.', example: '1000.00' })
  cash: string;

  @ApiProperty({
    description: 'Cash minus withdrawal holds and open buy-order holds (buying power).',
    example: '750.00',
  })
  available: string;

  @ApiProperty({ description: 'Deposits initiated and not yet settled.', example: '100.00' })
  pending_deposits: string;

  @ApiProperty({ description: 'Withdrawals held and not yet settled.', example: '250.00' })
  withdrawal_holds: string;

  @ApiProperty({ description: 'Held for open buy orders.', example: '0.00' })
  order_holds: string;
}

class TransferViewDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: 253402300799,
    description: 'Unix seconds (clock time).',
    example: 1772465400,
  })
  created: number;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { plan: 'gold' } })
  metadata: Record<string, string>;

  @ApiProperty({ example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
  investor_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({
    description: 'The wallet transaction (txn_...) of the same transfer.',
    example: 'txn_8Wm2cQx4Lr7Tb1Nv5Zk9Pa',
  })
  transaction_id: string;

  @ApiProperty({ enum: TRANSFER_STATUSES, example: 'pending' })
  status: string;

  @ApiProperty({ example: '250.00' })
  amount: string;

  @ApiProperty({ example: 'USD' })
  currency: string;

  @ApiProperty({ example: '0.00' })
  fee: string;

  @ApiProperty({ example: '250.00' })
  net_amount: string;

  @ApiProperty({ example: 'fs_3kTq9Lm2XbVa7Pn0Rz4cWd' })
  funding_source_id: string;

  @ApiProperty({ enum: TRANSFER_METHODS, example: 'ach' })
  method: string;

  @ApiProperty({ type: String, nullable: true, example: 'Monthly savings' })
  description: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  external_reference_id: string | null;

  @ApiProperty({ type: String, nullable: true, example: null })
  failure_reason: string | null;

  @ApiProperty(ISO_OR_NULL)
  settled_at: string | null;

  @ApiProperty(ISO_OR_NULL)
  failed_at: string | null;

  @ApiProperty(ISO_OR_NULL)
  canceled_at: string | null;
}

export class DepositDto extends TransferViewDto {
  @ApiProperty({ example: 'dep_Qv3nL8cT2mXa9Rb4Wk7ZpE' })
  id: string;

  @ApiProperty({ enum: ['deposit'], example: 'deposit' })
  object: 'deposit';
}

export class WithdrawalDto extends TransferViewDto {
  @ApiProperty({ example: 'wdr_Tz6pM1vK8qLc3Xa0Rn5BwD' })
  id: string;

  @ApiProperty({ enum: ['withdrawal'], example: 'withdrawal' })
  object: 'withdrawal';
}
