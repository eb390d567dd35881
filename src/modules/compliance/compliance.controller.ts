import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, TestModeOnly } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { ComplianceService } from 'src/modules/compliance/compliance.service';
import { KycVerificationDto } from 'src/modules/compliance/dto/kyc-verification.dto';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });

@ApiTags('Compliance')
@Controller()
export class ComplianceController {
  constructor(private readonly compliance: ComplianceService) {}

  @Get('investors/:investor_id/kyc')
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'getKyc',
    summary: 'Retrieve KYC status',
    description:
      'The investor’s KYC status, what is still missing for submission, and any rejection reasons.',
  })
  @ApiOkResponse({ type: KycVerificationDto })
  @ApiErrors('SVC-404-001')
  get(@CurrentPrincipal() principal: Principal, @Param('investor_id') investorId: string) {
    return this.compliance.get(principal, investorId);
  }

  @Post('investors/:investor_id/kyc')
  @HttpCode(200)
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'submitKyc',
    summary: 'Submit KYC',
    description:
      'Submits the account application for review: the account goes SUBMITTED → PENDING_APPROVAL ' +
      '(`account.updated`). Refused with 422 SVC-422-001 while `missing` is not empty, 409 SVC-409-001 unless the ' +
      'account is SUBMITTED. **Sandbox (test keys):** the review happens at once — pending documents are ' +
      'decided (a file name containing `reject` is rejected; `document.approved` / `document.rejected`), then a ' +
      'last name `Reject` or a rejected document rejects the application (back to SUBMITTED, kyc `rejected`), ' +
      'a politically exposed person stays in review for the test helpers, anyone else is approved (ACTIVE, ' +
      '`account.updated` and `kyc.verification.approved`). **Live:** the application waits in PENDING_APPROVAL ' +
      'for the broker’s compliance review.',
  })
  @ApiOkResponse({ type: KycVerificationDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001', 'SVC-422-001')
  submit(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.compliance.submit(principal, investorId, idem);
  }

  @Post('test_helpers/investors/:investor_id/kyc/approve')
  @HttpCode(200)
  @TestModeOnly()
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'testHelperApproveKyc',
    summary: 'Force KYC approval (test helper)',
    description:
      'Test mode only. Approves the application whatever its data or missing items, submitting it first if ' +
      'needed; pending documents are approved. The account becomes ACTIVE. 409 SVC-409-001 when the account ' +
      'is already ACTIVE, SUSPENDED or CLOSED. It acts on one investor, so a tenant key or that investor’s own ' +
      'key may call it; another investor’s id answers 404.',
  })
  @ApiOkResponse({ type: KycVerificationDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  approve(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.compliance.forceApprove(principal, investorId, idem);
  }

  @Post('test_helpers/investors/:investor_id/kyc/reject')
  @HttpCode(200)
  @TestModeOnly()
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'testHelperRejectKyc',
    summary: 'Force KYC rejection (test helper)',
    description:
      'Test mode only. Rejects a SUBMITTED or PENDING_APPROVAL application (reason `rejected_in_review`): the ' +
      'account is SUBMITTED with kyc `rejected` and can be corrected and resubmitted. 409 SVC-409-001 otherwise. ' +
      'A tenant key or that investor’s own key may call it; another investor’s id answers 404.',
  })
  @ApiOkResponse({ type: KycVerificationDto })
  @ApiErrors('SVC-404-001', 'SVC-409-001')
  reject(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Idempotency() idem: IdempotentRequest | undefined,
  ) {
    return this.compliance.forceReject(principal, investorId, idem);
  }
}
