import { ApiProperty } from '@nestjs/swagger';
import { COUNT, UNIX_SECONDS } from 'src/core/http/integer-schemas';
import {
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
} from 'src/modules/documents/entities/document.entity';

/** A KYC document (envelope style, object: document). The bytes are at `.../download`. */
export class DocumentDto {
  @ApiProperty({ example: 'doc_Z3k9QbV0aT4mW1xRy7cN2p' })
  id: string;

  @ApiProperty({ enum: ['document'], example: 'document' })
  object: 'document';

  @ApiProperty({
    ...UNIX_SECONDS,
    nullable: true,
    description: 'Unix seconds of creation.',
    example: 1763633700,
  })
  created: number | null;

  @ApiProperty({ example: false })
  livemode: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} })
  metadata: Record<string, string>;

  @ApiProperty({ example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' })
  investor_id: string;

  @ApiProperty({ format: 'uuid', example: '7f0e6c3e-3b4f-4f7e-9a55-1c2d3e4f5a6b' })
  account_id: string;

  @ApiProperty({ enum: DOCUMENT_TYPES, example: 'passport' })
  type: string;

  @ApiProperty({
    enum: DOCUMENT_STATUSES,
    example: 'approved',
    description:
      '`pending` until reviewed. The sandbox reviews a document when KYC is submitted, or at upload once the ' +
      'account has left SUBMITTED: a file name containing `reject` (any case) is rejected, any other approved. ' +
      'Live documents wait for the broker’s compliance review.',
  })
  status: string;

  @ApiProperty({ example: 'passport.pdf', description: 'The uploaded file name, without any path.' })
  file_name: string;

  @ApiProperty({ enum: DOCUMENT_CONTENT_TYPES, example: 'application/pdf' })
  content_type: string;

  @ApiProperty({ ...COUNT, example: 48213, description: 'Bytes.' })
  size: number;

  @ApiProperty({
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    description: 'SHA-256 of the bytes, hex.',
  })
  sha256: string;

  @ApiProperty({ type: String, nullable: true, example: null })
  rejection_reason: string | null;

  @ApiProperty({ ...UNIX_SECONDS, nullable: true, example: 1763633700, description: 'Unix seconds.' })
  reviewed_at: number | null;
}
