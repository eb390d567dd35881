import { Injectable } from '@nestjs/common';
import { AccountHooks } from 'src/modules/accounts/account-hooks';

/**
 * Only ACTIVE accounts trade, so a suspension ends what would still trade on its own: Trading
 * registers a hook that cancels the account's open orders (their holds released, `order.canceled`
 * sent). Runs with the account row locked, so no order is placed meanwhile.
 */
@Injectable()
export class AccountSuspension extends AccountHooks {}
