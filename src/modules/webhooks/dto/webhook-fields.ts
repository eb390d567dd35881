import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional } from 'class-validator';
import { ServiceError } from 'src/core/errors/service-error';

/**
 * `events` is not a field of webhook registration (spec: the field is eventTypeNames). Sending it
 * fails before any other check, with a message naming the right field.
 */
export function RefuseEventsField(): PropertyDecorator {
  return applyDecorators(
    // Known to validation (so its absence is fine), refused by the transform when present.
    IsOptional(),
    Transform(() => {
      throw ServiceError.invalid(
        'events',
        'Unknown field events: list the event names or wildcards to receive in eventTypeNames.',
      );
    }),
  );
}

export const EVENT_TYPE_NAMES_DESCRIPTION =
  'Event names from `GET /v1/webhooks/event-types`, domain wildcards (`order.*`, `transfer.*`, ' +
  '`account.*`, `document.*`, `kyc.*`, also sub-domains such as `transfer.deposit.*`) or `*` for every ' +
  'event. 1 to 50 entries; duplicates are dropped. The field is `eventTypeNames`, not `events`.';
