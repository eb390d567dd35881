import { Injectable } from '@nestjs/common';
import { AccountHooks } from 'src/modules/accounts/account-hooks';

/** Work done inside an account's opening transaction (cash sweep enrolls it in its default tier). */
@Injectable()
export class AccountOpenings extends AccountHooks {}
