import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

export interface Branding {
  display_name: string | null;
  accent_color: string | null;
}

/** A tenant's name and accent colour as printed on its investors' documents. */
@Injectable()
export class BrandingService {
  constructor(private readonly dataSource: DataSource) {}

  async get(tenantId: string, manager: EntityManager = this.dataSource.manager): Promise<Branding> {
    const rows: Branding[] = await manager.query(
      `SELECT display_name, accent_color FROM tenant_branding WHERE tenant_id = $1`,
      [tenantId],
    );
    return rows[0] ?? { display_name: null, accent_color: null };
  }

  /** Changes the fields given (null clears one); answers the branding now in force. */
  async update(tenantId: string, change: Partial<Branding>): Promise<Branding> {
    const current = await this.get(tenantId);
    const next: Branding = {
      display_name: change.display_name !== undefined ? change.display_name : current.display_name,
      accent_color: change.accent_color !== undefined ? change.accent_color : current.accent_color,
    };
    await this.dataSource.query(
      `INSERT INTO tenant_branding (tenant_id, display_name, accent_color, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (tenant_id) DO UPDATE SET display_name = $2, accent_color = $3, updated_at = now()`,
      [tenantId, next.display_name, next.accent_color],
    );
    return next;
  }
}
