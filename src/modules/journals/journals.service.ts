import { Injectable } from '@nestjs/common';
import type { Principal } from 'src/core/auth/principal';
import { ServiceError } from 'src/core/errors/service-error';
import { ListEnvelope, toList } from 'src/core/http/envelope';
import { isIdOf } from 'src/core/ids/ids';
import type { JournalDto, JournalsQuery } from 'src/modules/journals/dto/journal.dto';
import { journalView } from 'src/modules/journals/journal-views';
import { JournalsRepository } from 'src/modules/journals/journals.repository';

/** Journal reads: one, or a page newest first with filters and a cursor. */
@Injectable()
export class JournalsService {
  constructor(private readonly repository: JournalsRepository) {}

  async get(principal: Principal, id: string): Promise<JournalDto> {
    const row = isIdOf('journal', id) ? await this.repository.find(principal, id) : null;
    if (!row) {
      throw ServiceError.notFound('journal', id);
    }
    return journalView(row);
  }

  async list(principal: Principal, query: JournalsQuery, url: string): Promise<ListEnvelope<JournalDto>> {
    if (query.starting_after && query.ending_before) {
      throw ServiceError.invalid('ending_before', 'Send starting_after or ending_before, not both.');
    }
    const cursorId = query.starting_after ?? query.ending_before;
    const cursor =
      cursorId && isIdOf('journal', cursorId) ? await this.repository.find(principal, cursorId) : null;
    if (cursorId && !cursor) {
      throw ServiceError.invalid(
        query.starting_after ? 'starting_after' : 'ending_before',
        `No such journal: '${cursorId}'.`,
      );
    }
    const limit = query.limit ?? 50;
    const rows = await this.repository.page(
      principal,
      {
        accountId: query.account_id,
        entryType: query.entry_type,
        createdGte: query.created_gte ? new Date(query.created_gte) : undefined,
        createdLt: query.created_lt ? new Date(query.created_lt) : undefined,
      },
      limit,
      query.starting_after ? { after: cursor! } : query.ending_before ? { before: cursor! } : {},
    );
    const page = rows.slice(0, limit);
    return toList(url, (query.ending_before ? page.reverse() : page).map(journalView), rows.length > limit);
  }
}
