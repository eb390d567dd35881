import type { EntityManager } from 'typeorm';
import type { AssetQueryRow } from 'src/modules/assets/asset-queries';
import type { AssetsService } from 'src/modules/assets/assets.service';
import type { CorporateActionTerms } from 'src/modules/corporate-actions/corporate-action.types';
import type { Scope } from 'src/modules/corporate-actions/corporate-actions.repository';
import { CorporateActionTermsError } from 'src/modules/corporate-actions/terms-rules';

/** Classes with a corporate actions calendar: listed shares and funds. */
export const SHARE_CLASSES = ['equity', 'etf'];

/**
 * The terms of a symbol change or stock merger checked against the catalogue as `scope` sees it,
 * 400 naming the field otherwise: a new symbol no other asset answers to; a stock merger's
 * acquirer found by `new_asset_id` and/or `new_symbol` (both naming the same asset), another listed
 * share in the target's currency (v1 does no FX), its id and ticker then stored in both fields.
 */
export async function checkReorganization(
  assets: AssetsService,
  scope: Scope,
  target: AssetQueryRow,
  terms: CorporateActionTerms,
  manager: EntityManager,
): Promise<CorporateActionTerms> {
  if (terms.type === 'symbol_change') {
    const symbol = terms.new_symbol as string;
    if (symbol === target.symbol.toUpperCase()) {
      throw new CorporateActionTermsError('new_symbol', `${target.symbol} already has the symbol ${symbol}.`);
    }
    const taken = await assets.resolveInScope(scope, symbol, manager);
    if (taken && taken.row.id !== target.id) {
      throw new CorporateActionTermsError('new_symbol', `${symbol} is already the symbol of another asset.`);
    }
    return terms;
  }
  if (terms.type !== 'stock_merger') {
    return terms;
  }
  const byId = terms.new_asset_id
    ? await acquirerBy(assets, scope, 'new_asset_id', terms.new_asset_id, manager)
    : null;
  const bySymbol = terms.new_symbol
    ? await acquirerBy(assets, scope, 'new_symbol', terms.new_symbol, manager)
    : null;
  if (byId && bySymbol && byId.id !== bySymbol.id) {
    throw new CorporateActionTermsError(
      'new_symbol',
      `new_symbol ${terms.new_symbol} names another asset than new_asset_id ${terms.new_asset_id}.`,
    );
  }
  const acquirer = (byId ?? bySymbol) as AssetQueryRow;
  const field = byId ? 'new_asset_id' : 'new_symbol';
  if (acquirer.id === target.id) {
    throw new CorporateActionTermsError(field, 'A stock merger’s acquirer is another asset than the target.');
  }
  if (
    !SHARE_CLASSES.includes(acquirer.class) ||
    acquirer.currency !== target.currency ||
    acquirer.status !== 'active'
  ) {
    throw new CorporateActionTermsError(
      field,
      `The acquirer ${acquirer.symbol} must be an active listed equity or ETF in ${target.currency}, the target's currency.`,
    );
  }
  return { ...terms, new_asset_id: acquirer.id, new_symbol: acquirer.symbol };
}

async function acquirerBy(
  assets: AssetsService,
  scope: Scope,
  field: 'new_asset_id' | 'new_symbol',
  ref: string,
  manager: EntityManager,
): Promise<AssetQueryRow> {
  const found = await assets.resolveInScope(scope, ref, manager);
  if (!found || (field === 'new_asset_id' && found.row.id.toLowerCase() !== ref.toLowerCase())) {
    throw new CorporateActionTermsError(
      field,
      `Unknown acquirer '${ref}': send the ${field === 'new_asset_id' ? 'id' : 'ticker'} of a listed asset.`,
    );
  }
  return found.row;
}
