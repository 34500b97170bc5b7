import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { BullBoardModule } from '@bull-board/nestjs';
import { DynamicModule, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { fromSameSite, isStateChanging } from '../access/admin-token';
import { AccessService } from '../access/access.service';
import type { Principal } from '../access/principal';
import { SessionPrincipals } from '../access/session-principal.service';
import { ACTIONS_QUEUE, EVENTS_QUEUE, SWEEPS_QUEUE } from '../../runtime/queues/queue-jobs';
import { QueuesModule } from '../../runtime/queues/queues.module';
import { QUEUE_BOARD_CSP, securityHeaders } from './security-headers';

const BOARD_HEADERS = securityHeaders(QUEUE_BOARD_CSP);

// bull-board's adapter typings lag BullMQ's minor versions; the runtime contract is the same.
const Adapter = BullMQAdapter as never;

type Gate = (req: Request) => Promise<{ principal?: Principal; status: number; message: string }>;

/**
 * Who opens the board: an admin's console session (the console links it; no basic-auth prompt)
 * or an admin's token as X-Admin-Token. Its retry/clean calls must come from the board's own
 * pages (Sec-Fetch-Site / Origin). Bull Board's middleware is a plain function made before Nest
 * builds its providers; QueueBoardGate fills it in at start.
 */
@Injectable()
class QueueBoardGate implements OnModuleInit {
  static gate?: Gate;

  constructor(
    private readonly access: AccessService,
    private readonly sessions: SessionPrincipals,
  ) {}

  onModuleInit(): void {
    QueueBoardGate.gate = async (req) => {
      let principal = (await this.sessions.current(req))?.principal;
      if (!principal) {
        const answer = await this.access.fromToken(req);
        if (!answer.ok) return { status: answer.status, message: answer.message };
        principal = answer.principal;
      }
      if (!principal) return { status: 401, message: 'log in to the console as an admin first' };
      if (principal.role !== 'admin') return { status: 403, message: 'the queue board needs the admin role' };
      if (isStateChanging(req.method) && !fromSameSite(req.headers))
        return { status: 403, message: 'cross-site queue board request refused (Origin / Sec-Fetch-Site)' };
      return { principal, status: 200, message: '' };
    };
  }
}

function guard(req: Request, res: Response, next: NextFunction): void {
  res.set(BOARD_HEADERS);
  const gate = QueueBoardGate.gate;
  if (!gate) {
    res.status(503).send('starting');
    return;
  }
  gate(req).then(
    (d) => (d.principal ? next() : void res.status(d.status).type('text/plain').send(d.message)),
    () => void res.status(503).type('text/plain').send('sessions unavailable (database); try again shortly'),
  );
}

@Module({})
export class QueueBoardModule {
  static register(): DynamicModule {
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
      providers: [QueueBoardGate],
    };
  }
}
