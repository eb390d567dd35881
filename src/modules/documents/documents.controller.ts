import {
  Body,
  Controller,
  Get,
  Header,
  Param,
  Post,
  Query,
  Req,
  StreamableFile,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentPrincipal } from 'src/core/auth/auth.decorators';
import type { Principal } from 'src/core/auth/principal';
import { ApiErrors } from 'src/core/errors/error-docs';
import { Idempotency, IdempotentRequest } from 'src/core/idempotency/idempotent-request';
import type { ListEnvelope } from 'src/core/http/envelope';
import { ListEnvelopeOf } from 'src/core/http/list-envelope.dto';
import {
  DocumentUploadInterceptor,
  UploadedDocumentFile,
} from 'src/modules/documents/document-upload.interceptor';
import { DocumentsService } from 'src/modules/documents/documents.service';
import { DocumentDto } from 'src/modules/documents/dto/document.dto';
import {
  ListDocumentsQuery,
  UPLOAD_BODY_SCHEMA,
  UploadDocumentDto,
} from 'src/modules/documents/dto/upload-document.dto';
import { DOCUMENT_CONTENT_TYPES } from 'src/modules/documents/entities/document.entity';
import { ReadsMayLag } from 'src/core/database/replicas/read-context';

const INVESTOR_ID = ApiParam({ name: 'investor_id', example: 'inv_4Qm1bX9kLr2TzP0aVn7c8w' });
const DOCUMENT_ID = ApiParam({ name: 'document_id', example: 'doc_Z3k9QbV0aT4mW1xRy7cN2p' });

@ApiTags('Document Management')
@Controller('investors/:investor_id/documents')
export class DocumentsController {
  constructor(private readonly documents: DocumentsService) {}

  @Post()
  @INVESTOR_ID
  @UseInterceptors(DocumentUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_BODY_SCHEMA })
  @ApiOperation({
    operationId: 'uploadDocument',
    summary: 'Upload a document',
    description:
      'Multipart upload of one KYC document in the field `file`, with its `type`. Accepted: PDF, PNG, JPEG, ' +
      'up to DOCUMENT_MAX_BYTES (10 MB by default; beyond: 413 SVC-413-001). The declared content type must ' +
      'match the file’s magic bytes, otherwise 400 SVC-400-001 with param `file`; a file sent as ' +
      '`application/octet-stream` is stored (and later served) with the type its magic bytes identify. ' +
      'The SHA-256 of the bytes is ' +
      'returned as `sha256`. A document starts `pending`; see `status` for the sandbox review.',
  })
  @ApiCreatedResponse({ type: DocumentDto })
  @ApiErrors('SVC-400-001', 'SVC-400-002', 'SVC-404-001', 'SVC-409-001', 'SVC-413-001')
  upload(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Body() body: UploadDocumentDto,
    @Req() req: Request,
    @Idempotency() idem: IdempotentRequest | undefined,
  ): Promise<DocumentDto> {
    return this.documents.upload(
      principal,
      investorId,
      body,
      req.file as UploadedDocumentFile | undefined,
      idem,
    );
  }

  @Get()
  @ReadsMayLag()
  @INVESTOR_ID
  @ApiOperation({
    operationId: 'listDocuments',
    summary: 'List documents',
    description: 'The investor’s documents, newest first, optionally by type or status. Cursor pagination.',
  })
  @ApiOkResponse({ type: ListEnvelopeOf(DocumentDto, '/v1/investors/inv_4Qm1bX9kLr2TzP0aVn7c8w/documents') })
  @ApiErrors('SVC-400-001', 'SVC-404-001')
  list(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Query() query: ListDocumentsQuery,
    @Req() req: Request,
  ): Promise<ListEnvelope<DocumentDto>> {
    return this.documents.list(principal, investorId, query, req);
  }

  @Get(':document_id')
  @INVESTOR_ID
  @DOCUMENT_ID
  @ApiOperation({
    operationId: 'getDocument',
    summary: 'Retrieve a document',
    description: 'The document’s metadata; the bytes are at `/download`.',
  })
  @ApiOkResponse({ type: DocumentDto })
  @ApiErrors('SVC-404-001')
  get(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('document_id') documentId: string,
  ): Promise<DocumentDto> {
    return this.documents.get(principal, investorId, documentId);
  }

  @Get(':document_id/download')
  @INVESTOR_ID
  @DOCUMENT_ID
  @Header('X-Content-Type-Options', 'nosniff')
  @Header('Cache-Control', 'private, no-store')
  @ApiOperation({
    operationId: 'downloadDocument',
    summary: 'Download a document',
    description:
      'Streams the uploaded bytes unchanged, with the original content type and `Content-Disposition: ' +
      'attachment` naming the uploaded file. A `trade_confirmation` or `account_statement` (made by the ' +
      'service) is a PDF; with `Accept: application/json` it answers its data as JSON instead.',
  })
  @ApiOkResponse({
    description: 'The document’s bytes.',
    content: {
      ...Object.fromEntries(
        DOCUMENT_CONTENT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
      ),
      'application/json': {
        schema: {
          type: 'object',
          description: 'The data of a trade_confirmation or account_statement (DECISIONS: the JSON shapes).',
          additionalProperties: true,
        },
      },
    },
  })
  @ApiErrors('SVC-404-001')
  download(
    @CurrentPrincipal() principal: Principal,
    @Param('investor_id') investorId: string,
    @Param('document_id') documentId: string,
    @Req() req: Request,
  ): Promise<StreamableFile> {
    // Read from the request, not @Headers(): the Accept header is content negotiation, not a
    // documented parameter.
    return this.documents.download(principal, investorId, documentId, req.headers.accept);
  }
}
