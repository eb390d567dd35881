import type { Principal } from 'src/core/auth/principal';
import type {
  CreateInvestorTransferDto,
  WalletTransferRequestDto,
} from 'src/modules/transfers/dto/transfer-request.dto';
import type { TransferType } from 'src/modules/transfers/entities/transfer.entity';
import type { InitiateTransferCommand } from 'src/modules/transfers/use-cases/initiate-transfer.use-case';

/** A wallet route's body (spec, POST /wallet/accounts/{account_id}/funding) as a transfer command. */
export function walletCommand(
  principal: Principal,
  type: TransferType,
  accountId: string,
  body: WalletTransferRequestDto,
): InitiateTransferCommand {
  return {
    principal,
    type,
    target: { accountId },
    amount: body.amount,
    currency: body.funding_details.fiat_currency,
    fundingSourceId: body.funding_details.bank_account_id,
    method: body.funding_details.method,
    description: body.description,
    externalReferenceId: body.external_reference_id,
    params: { currency: 'funding_details.fiat_currency', fundingSource: 'funding_details.bank_account_id' },
  };
}

/** An envelope route's body (POST /investors/{investor_id}/deposits|withdrawals) as a transfer command. */
export function investorCommand(
  principal: Principal,
  type: TransferType,
  investorId: string,
  body: CreateInvestorTransferDto,
): InitiateTransferCommand {
  return {
    principal,
    type,
    target: { investorId },
    amount: body.amount,
    currency: body.currency,
    fundingSourceId: body.funding_source_id,
    method: body.method,
    description: body.description,
    metadata: body.metadata,
    params: { currency: 'currency', fundingSource: 'funding_source_id' },
  };
}
