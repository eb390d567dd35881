import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ClockService } from 'src/core/clock/clock.service';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import type { IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import { IdempotentTransaction } from 'src/core/idempotency/idempotent-transaction';
import { toDecimalText } from 'src/core/money/money';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import { AssetPresenter } from 'src/modules/assets/asset-presenter';
import { AssetsRepository } from 'src/modules/assets/assets.repository';
import { announceCatalogueChange } from 'src/modules/assets/catalogue-changes';
import type { AssetDto } from 'src/modules/assets/dto/asset.dto';
import type { SetPricesDto } from 'src/modules/assets/dto/set-prices.dto';
import { PriceTicks } from 'src/modules/pricing/price-ticks';

/**
 * Sandbox test helper: fixes the last price of assets for the calling tenant's test mode, so fills and
 * valuations can be driven deterministically. Bid and ask follow the fixed price with the usual spread;
 * the previous close stays the simulated one, so change and changePercent reflect the new price.
 */
@Injectable()
export class PriceTestHelpersService {
  constructor(
    private readonly repository: AssetsRepository,
    private readonly presenter: AssetPresenter,
    private readonly transactions: IdempotentTransaction,
    private readonly clock: ClockService,
    private readonly ticks: PriceTicks,
  ) {}

  async setPrices(
    principal: Principal,
    body: SetPricesDto,
    url: string,
    idem: IdempotentRequest | undefined,
  ): Promise<ListEnvelope<AssetDto>> {
    if (body.prices !== undefined && (body.symbol !== undefined || body.price !== undefined)) {
      throw ServiceError.invalid('prices', 'Send either symbol and price, or prices, not both.');
    }
    const settings = body.prices
      ? body.prices.map((p, i) => ({ ...p, param: `prices[${i}].symbol` }))
      : [{ symbol: body.symbol as string, price: body.price ?? null, param: 'symbol' }];
    const assets = new Map<string, { row: AssetQueryRow; price: string | null }>();
    for (const setting of settings) {
      const row = await this.repository.findByRef(setting.symbol, principal.tenantId);
      if (!row) {
        throw ServiceError.invalid(setting.param, `No such asset: '${setting.symbol}'.`);
      }
      assets.delete(row.id);
      assets.set(row.id, {
        row,
        price: setting.price === null ? null : toDecimalText(String(setting.price)),
      });
    }
    const result = await this.transactions.run(idem, async (manager) => {
      for (const [assetId, { price }] of assets) {
        await this.repository.setOverride(manager, principal.tenantId, assetId, price);
      }
      const rows: AssetQueryRow[] = [];
      for (const { row } of assets.values()) {
        rows.push((await this.repository.findByRef(row.id, principal.tenantId, manager)) as AssetQueryRow);
      }
      const at = await this.clock.now(principal);
      return toList(url, await this.presenter.present(rows, principal.livemode, at), false);
    });
    // Committed: this process's kept search overrides go now (others' on the notification).
    announceCatalogueChange({ kind: 'overrides', tenantId: principal.tenantId });
    // Orders of these assets are evaluated at the new price before the helper answers.
    await this.ticks.notify({ tenantId: principal.tenantId, livemode: false }, [...assets.keys()]);
    return result;
  }
}
