import { Controller, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from 'src/core/auth/auth.decorators';
import { rawBodyOf } from 'src/core/http/json-body';
import { WebhookSinkInbox } from 'src/modules/webhook-sinks/webhook-sink-inbox.service';

/**
 * The address of each sink (`url` of a webhook sink). Deliveries from this deployment are
 * recorded without a network round trip (WebhookSender); this route takes POSTs from anywhere else,
 * such as a partner trying a payload with curl. Not part of the partner API document: it is an
 * opaque receiver url.
 */
@ApiExcludeController()
@Public()
@Controller('webhook-sinks')
export class WebhookSinkInboxController {
  constructor(private readonly inbox: WebhookSinkInbox) {}

  @Post(':sink_id')
  async receive(@Param('sink_id') sinkId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const body = rawBodyOf(req);
    const status = this.inbox.sinkIdOf(`${this.inbox.urlPrefix}${sinkId}`)
      ? await this.inbox.record(sinkId, req.method, req.headers, body)
      : 404;
    res
      .status(status)
      .type('text/plain')
      .send(status === 404 ? 'no such sink' : 'ok');
  }
}
