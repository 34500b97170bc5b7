// What failed and needs an operator: failed events, dead / uncertain / failed actions.
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { DataSource } from 'typeorm';
import { actionText } from '../matching/format-explain';
import { ConsoleResponder } from './console-responder';
import { contactHref, when } from './pages/format';
import { FAILED_ACTION_STATUSES, findFailedActions, findFailedEvents } from './queries/failures-queries';

const LIMIT = 200;

@ApiExcludeController()
@Controller('console/failures')
export class ConsoleFailuresController {
  constructor(
    private readonly db: DataSource,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query() q: Record<string, string>) {
    const filter = {
      rule: q.rule || undefined,
      status: (FAILED_ACTION_STATUSES as readonly string[]).includes(q.status) ? q.status : undefined,
    };
    const [actions, events] = await Promise.all([
      findFailedActions(this.db, { ...filter, limit: LIMIT }),
      findFailedEvents(this.db, undefined, LIMIT),
    ]);
    const view = {
      filter,
      statuses: FAILED_ACTION_STATUSES.map((value) => ({ value, selected: value === filter.status })),
      operations: [],
      actions: actions.map((a) => ({
        ...a,
        at: when(a.finishedAt),
        contactHref: contactHref(a.contactId),
        text: actionText(a.action),
        error: [a.errorCode, a.errorMessage].filter(Boolean).join(': '),
        requestId: a.requestId ?? '',
        ops: [],
      })),
      events: events.map((e) => ({
        ...e,
        at: when(e.receivedAt),
        contactHref: e.contactId ? contactHref(e.contactId) : '',
      })),
    };
    this.pages.send(req, res, 'failures', view, { title: 'Failures' });
  }
}
