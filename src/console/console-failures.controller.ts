// What failed and needs an operator: failed events, dead / uncertain / failed actions; retry or
// replay them, one or every one matching the filter, always after a confirmation page.
import { BadRequestException, Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  FailureOperationsService,
  RESOLUTIONS,
  type UncertainResolution,
} from '../admin/failure-operations.service';
import { ActionResultsRepository, type ActionNeedingAttention } from '../ledger/action-results.repository';
import { InboxEventsRepository } from '../ledger/inbox-events.repository';
import { ConsoleResponder } from './console-responder';
import { ATTENTION_STATUSES } from './live/overview-feed.service';
import { actionShown, contactHref, when } from './pages/format';

const LIMIT = 200;
/** What FailureOperationsService can run again (uncertain actions need a human's judgement first). */
const RETRYABLE = ['dead', 'failed'];
/** An uncertain message: the operator says what happened, the engine never decides alone. */
const RESOLVE_OPS: { op: UncertainResolution; label: string; question: string }[] = [
  {
    op: 'sent',
    label: 'Mark sent',
    question: 'Record this message as sent (the customer has it) and continue the run?',
  },
  {
    op: 'send-again',
    label: 'Send again',
    question:
      'Send this message once more and continue the run? Only if you know the customer did not get it.',
  },
  { op: 'discard', label: 'Discard', question: 'Drop this message and end its run as failed?' },
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface ActionForm {
  op?: string;
  runId?: string;
  rule?: string;
  status?: string;
  confirmed?: string;
}

@ApiExcludeController()
@Controller('console/failures')
export class ConsoleFailuresController {
  constructor(
    private readonly actionResults: ActionResultsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly operations: FailureOperationsService,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query() q: Record<string, string>) {
    const filter = this.filterOf(q);
    const [actions, events] = await Promise.all([
      this.actionResults.needingAttention({ statuses: filter.statuses, rule: filter.rule, limit: LIMIT }),
      this.inbox.failed(LIMIT),
    ]);
    const view = {
      filter: { rule: filter.rule ?? '', status: q.status ?? '' },
      statuses: ATTENTION_STATUSES.map((value) => ({ value, selected: value === q.status })),
      operations: actions.some((a) => RETRYABLE.includes(a.status)) ? [{ op: 'retry', label: 'Retry' }] : [],
      actions: actions.map((a) => ({
        ...a,
        at: when(a.finishedAt),
        contactHref: contactHref(a.contactId),
        text: actionShown(a.action),
        error: [a.errorCode, a.errorMessage].filter(Boolean).join(': '),
        requestId: a.requestId ?? '',
        ops: RETRYABLE.includes(a.status) ? [{ op: 'retry', label: 'Retry' }] : [],
        resolveOps: a.status === 'uncertain' ? RESOLVE_OPS.map(({ op, label }) => ({ op, label })) : [],
      })),
      events: events.map((e) => ({
        ...e,
        at: when(e.receivedAt),
        contactHref: e.contactId ? contactHref(e.contactId) : '',
      })),
    };
    const flash = typeof q.done === 'string' ? q.done : undefined;
    this.pages.send(req, res, 'failures', view, { title: 'Failures', flash });
  }

  @Post('actions')
  async retryActions(@Req() req: Request, @Res() res: Response, @Body() body: ActionForm) {
    if (body?.op !== 'retry') throw new BadRequestException('op must be retry');
    const single = typeof body.runId === 'string' && UUID.test(body.runId) ? body.runId : undefined;
    const filter = this.filterOf(body);
    const targets = (
      await this.actionResults.needingAttention({
        statuses: filter.statuses.filter((s) => RETRYABLE.includes(s)),
        rule: single ? undefined : filter.rule,
        limit: 10_000,
      })
    ).filter((a) => !single || a.runId === single);
    if (body.confirmed !== 'yes') return this.confirm(req, res, targets, body, single);
    const runIds = [...new Set(targets.map((a) => a.runId))];
    let retried = 0;
    for (const runId of runIds) retried += await this.operations.retryDead({ runId, includeFailed: true });
    res.redirect(303, `/console/failures?done=${encodeURIComponent(`${retried} run(s) queued again`)}`);
  }

  @Post('uncertain')
  async resolveUncertain(
    @Req() req: Request,
    @Res() res: Response,
    @Body() body: { actionId?: string; op?: string; confirmed?: string },
  ) {
    const id = typeof body?.actionId === 'string' && UUID.test(body.actionId) ? body.actionId : undefined;
    const resolution = RESOLUTIONS.find((r) => r === body?.op);
    if (!id || !resolution)
      throw new BadRequestException(`actionId must be a uuid, op one of ${RESOLUTIONS.join(', ')}`);
    const choice = RESOLVE_OPS.find((o) => o.op === resolution)!;
    if (body.confirmed !== 'yes') {
      const view = {
        label: choice.label,
        question: choice.question,
        items: [id],
        action: '/console/failures/uncertain',
        fields: [
          { name: 'actionId', value: id },
          { name: 'op', value: resolution },
        ],
        back: '/console/failures',
      };
      return this.pages.send(req, res, 'confirm', view, { title: 'Confirm', section: 'failures' });
    }
    const decided = await this.operations.resolveUncertain(id, resolution);
    const done = decided ? `action ${id}: ${resolution}` : `action ${id} is not uncertain (already decided?)`;
    res.redirect(303, `/console/failures?done=${encodeURIComponent(done)}`);
  }

  @Post('events')
  async replayEvent(
    @Req() req: Request,
    @Res() res: Response,
    @Body() body: { eventId?: string; confirmed?: string },
  ) {
    const id = typeof body?.eventId === 'string' && UUID.test(body.eventId) ? body.eventId : undefined;
    if (!id) throw new BadRequestException('eventId must be a uuid');
    if (body.confirmed !== 'yes') {
      const view = {
        label: 'Replay event',
        question:
          'Process this event again? A failed event goes back to pending with its attempts reset; any other is evaluated again as a new trigger (once/cooldown still apply).',
        items: [id],
        action: '/console/failures/events',
        fields: [{ name: 'eventId', value: id }],
        back: '/console/failures',
      };
      return this.pages.send(req, res, 'confirm', view, { title: 'Confirm', section: 'failures' });
    }
    const replayed = await this.operations.replayEvent(id);
    const done = !replayed
      ? 'event not found'
      : replayed.reset
        ? `event ${id} back to pending`
        : `replayed as ${replayed.replayedAs}`;
    res.redirect(303, `/console/failures?done=${encodeURIComponent(done)}`);
  }

  private confirm(
    req: Request,
    res: Response,
    targets: ActionNeedingAttention[],
    body: ActionForm,
    single?: string,
  ) {
    const view = {
      label: `Retry ${targets.length} action(s)`,
      question: single
        ? 'Run this action (and the rest of its run) again?'
        : 'Run every one of these actions (and the rest of their runs) again?',
      items: targets
        .slice(0, 50)
        .map((a) => `${a.ruleId}: ${actionShown(a.action)} on ${a.contactId} (${a.status})`),
      action: '/console/failures/actions',
      fields: Object.entries({ op: 'retry', runId: single, rule: body.rule, status: body.status })
        .filter(([, value]) => value)
        .map(([name, value]) => ({ name, value })),
      back: '/console/failures',
    };
    this.pages.send(req, res, 'confirm', view, { title: 'Confirm', section: 'failures' });
  }

  private filterOf(q: { rule?: string; status?: string }) {
    const status = (ATTENTION_STATUSES as readonly string[]).includes(q.status ?? '') ? q.status! : undefined;
    return { rule: q.rule || undefined, statuses: status ? [status] : [...ATTENTION_STATUSES] };
  }
}
