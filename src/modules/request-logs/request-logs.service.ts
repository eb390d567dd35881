import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from 'src/core/auth/principal';
import { applyCreatedRange } from 'src/core/http/created-range';
import { ListEnvelope, toList, unixSeconds } from 'src/core/http/envelope';
import { paginateByCursor } from 'src/core/http/pagination';
import { isIdOf } from 'src/core/ids/ids';
import { ListRequestLogsQuery } from 'src/modules/request-logs/dto/list-request-logs.query';
import { RequestLogDto } from 'src/modules/request-logs/dto/request-log.dto';
import { RequestLogEntity } from 'src/modules/request-logs/request-log.entity';
import { RequestLogNotFoundError } from 'src/modules/request-logs/request-log-errors';

/** Read side of the request logs, scoped to the caller's tenant and mode. */
@Injectable()
export class RequestLogsService {
  constructor(@InjectRepository(RequestLogEntity) private readonly logs: Repository<RequestLogEntity>) {}

  async list(
    principal: Principal,
    query: ListRequestLogsQuery,
    url: string,
  ): Promise<ListEnvelope<RequestLogDto>> {
    const qb = this.logs.createQueryBuilder('l').where('l.tenant_id = :tenantId AND l.livemode = :livemode', {
      tenantId: principal.tenantId,
      livemode: principal.livemode,
    });
    if (query.status !== undefined) {
      qb.andWhere('l.status = :status', { status: query.status });
    }
    if (query.outcome !== undefined) {
      qb.andWhere(query.outcome === 'failed' ? 'l.status >= 400' : 'l.status < 400');
    }
    if (query.method !== undefined) {
      qb.andWhere('l.method = :method', { method: query.method });
    }
    if (query.path !== undefined) {
      const escaped = query.path.replace(/[\\%_]/g, (c) => `\\${c}`);
      qb.andWhere(`l.path LIKE :pathPrefix ESCAPE '\\'`, { pathPrefix: `${escaped}%` });
    }
    applyCreatedRange(qb, query.created);
    const page = await paginateByCursor(qb, query);
    return toList(url, page.data.map(toDto), page.hasMore);
  }

  async get(principal: Principal, id: string): Promise<RequestLogDto> {
    const row = isIdOf('request', id)
      ? await this.logs.findOneBy({ id, tenant_id: principal.tenantId, livemode: principal.livemode })
      : null;
    if (!row) {
      throw new RequestLogNotFoundError(id);
    }
    return toDto(row);
  }
}

function toDto(row: RequestLogEntity): RequestLogDto {
  return {
    id: row.id,
    object: 'request_log',
    created: unixSeconds(row.created_at)!,
    livemode: row.livemode,
    created_at: row.created_at.toISOString(),
    method: row.method,
    path: row.path,
    query: row.query,
    status: row.status,
    duration_ms: row.duration_ms,
    api_key_id: row.api_key_id,
    investor_id: row.investor_id,
    error_code: row.error_code,
    error: row.error,
    idempotency_key: row.idempotency_key,
    idempotent_replayed: row.idempotent_replayed,
    legacy: row.legacy,
  };
}
