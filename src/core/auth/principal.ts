import type { Product } from 'src/core/tenancy/tenant.entity';

/** Who is calling: resolved once per request by the auth guard, injected with @CurrentPrincipal(). */
export interface Principal {
  tenantId: string;
  livemode: boolean;
  /** apk_ id for API keys; the token subject for JWTs. Used as the rate-limit tracker. */
  keyId: string;
  /** Set when the key or token is scoped to one investor (inv_...). */
  investorId: string | null;
  products: ReadonlySet<Product>;
  fixedIncomeEnabled: boolean;
  method: 'basic' | 'jwt';
}
