import { createBullBoard } from '@bull-board/api';
import { BullAdapter } from '@bull-board/api/bullAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { INestApplication } from '@nestjs/common';
import { getQueueToken } from '@nestjs/bull';
import type { Queue } from 'bull';
import type { NextFunction, Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppConfig } from 'src/core/config/app-config.service';
import { SCHEDULED_JOBS_QUEUE } from 'src/core/scheduler/job-queue.service';
import { WEBHOOK_DELIVERY_QUEUE } from 'src/modules/webhooks/delivery/delivery-job';

export const QUEUE_BOARD_PATH = '/admin/queues';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** HTTP Basic against `user:password` from the environment, compared in constant time. */
export function adminGuard(credentials: string) {
  const expected = digest(credentials);
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization ?? '';
    const given = header.toLowerCase().startsWith('basic ')
      ? Buffer.from(header.slice(6).trim(), 'base64').toString('utf8')
      : '';
    if (given && timingSafeEqual(digest(given), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"');
    res.status(401).type('text/plain').send('Admin credentials required.');
  };
}

/**
 * Bull's queues for support at /admin/queues (bull-board), behind ADMIN_CREDENTIALS. Not mounted
 * at all when ADMIN_CREDENTIALS is unset.
 */
export function mountQueueBoard(app: INestApplication): boolean {
  const credentials = app.get(AppConfig).get('ADMIN_CREDENTIALS');
  if (!credentials) {
    return false;
  }
  const queues = [WEBHOOK_DELIVERY_QUEUE, SCHEDULED_JOBS_QUEUE].map(
    (name) => new BullAdapter(app.get<Queue>(getQueueToken(name), { strict: false })),
  );
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({ queues, serverAdapter });
  app.use(QUEUE_BOARD_PATH, adminGuard(credentials), serverAdapter.getRouter());
  return true;
}
