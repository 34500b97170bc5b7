// What failed and needs an operator: failed events, dead / uncertain / failed actions.
import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { actionText } from '../matching/format-explain';
import { ConsoleResponder } from './console-responder';
import { contactHref, when } from './pages/format';
import { ActionResultsRepository } from '../ledger/action-results.repository';
import { InboxEventsRepository } from '../ledger/inbox-events.repository';
import { ATTENTION_STATUSES } from './live/overview-feed.service';

const LIMIT = 200;

@ApiExcludeController()
@Controller('console/failures')
export class ConsoleFailuresController {
  constructor(
    private readonly actionResults: ActionResultsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query() q: Record<string, string>) {
    const filter = {
      rule: q.rule || undefined,
      status: (ATTENTION_STATUSES as readonly string[]).includes(q.status) ? q.status : undefined,
    };
    const [actions, events] = await Promise.all([
      this.actionResults.needingAttention({
        statuses: filter.status ? [filter.status] : ATTENTION_STATUSES,
        rule: filter.rule,
        limit: LIMIT,
      }),
      this.inbox.failed(LIMIT),
    ]);
    const view = {
      filter,
      statuses: ATTENTION_STATUSES.map((value) => ({ value, selected: value === filter.status })),
      operations: [],
      actions: actions.map((a) => ({
        ...a,
        at: when(a.finishedAt),
        contactHref: contactHref(a.contactId),
        text: actionText(a.action as unknown as Parameters<typeof actionText>[0]),
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
