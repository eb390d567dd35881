import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

const cache = new Map<Type<unknown>, Type<unknown>>();

/**
 * OpenAPI schema of the list envelope around `item` (spec, List envelope):
 * `{object:"list", url, has_more, data: item[]}`. One named schema per item type.
 */
export function ListEnvelopeOf<T>(item: Type<T>, exampleUrl = '/v1/...'): Type<unknown> {
  const known = cache.get(item);
  if (known) {
    return known;
  }
  class ListEnvelope {
    @ApiProperty({ enum: ['list'], example: 'list' })
    object: 'list';

    @ApiProperty({ description: 'Path that produced the list.', example: exampleUrl })
    url: string;

    @ApiProperty({ description: 'True if more results exist beyond data.', example: false })
    has_more: boolean;

    @ApiProperty({ type: item, isArray: true })
    data: T[];
  }
  Object.defineProperty(ListEnvelope, 'name', { value: `${item.name.replace(/Dto$/, '')}List` });
  cache.set(item, ListEnvelope);
  return ListEnvelope;
}
