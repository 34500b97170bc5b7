import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { DynamicModule, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { ACTIONS_QUEUE, EVENTS_QUEUE, SWEEPS_QUEUE } from '../queues/queues';
import { QueuesModule } from '../queues/queues.module';
import { checkAdminRequest } from '../admin-auth/admin-token';
import { QUEUE_BOARD_CSP, securityHeaders } from './security-headers';

const BOARD_HEADERS = securityHeaders(QUEUE_BOARD_CSP);

// bull-board's adapter typings lag BullMQ's minor versions; the runtime contract is the same.
const Adapter = BullMQAdapter as never;

/** Bull Board at /admin/queues, behind the admin token (basic auth password works in a browser; its
 * retry/clean calls must come from the board's own pages), with the console's security headers. */
@Module({})
export class QueueBoardModule {
  static register(config: AppConfig): DynamicModule {
    const guard = (req: Request, res: Response, next: NextFunction) => {
      res.set(BOARD_HEADERS);
      const decision = checkAdminRequest(req, config.adminToken, { allowBasic: true });
      if (decision.ok) return next();
      if (decision.status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="crm-rules admin"');
      res.status(decision.status).send(decision.message);
    };
    return {
      module: QueueBoardModule,
      imports: [
        QueuesModule,
        BullBoardModule.forRoot({
          route: '/admin/queues',
          adapter: ExpressAdapter as never,
          middleware: guard,
        }),
        BullBoardModule.forFeature(
          { name: EVENTS_QUEUE, adapter: Adapter },
          { name: ACTIONS_QUEUE, adapter: Adapter },
          { name: SWEEPS_QUEUE, adapter: Adapter },
        ),
      ],
    };
  }
}
