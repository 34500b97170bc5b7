// What failed and needs an operator: failed events, dead / uncertain / failed actions; retry or
// replay them, one or every one matching the filter, always after a confirmation page that
// carries the ids it showed (the confirmed post acts on those, never on a new query).
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  NotFoundException,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  FailureOperationsService,
  RESOLUTIONS,
  type UncertainResolution,
} from '../admin/failure-operations.service';
import {
  ActionResultsRepository,
  type ActionNeedingAttention,
} from '../../persistence/ledger/action-results.repository';
import { InboxEventsRepository } from '../../persistence/ledger/inbox-events.repository';
import { ConsoleResponder } from './console-responder';
import { ATTENTION_STATUSES, SKIPPED_MESSAGES_WINDOW_MS } from './live/overview-feed.service';
import { actionShown, contactShown, when } from './pages/display-format';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { MESSAGE_SKIP_KINDS } from '../../language/policy/message-skips';
import { retrySelection } from './pages/retry-selection';
import { MinRole } from '../roles/min-role.decorator';
import { requireRole } from '../access/access.guard';
import type { WithPrincipal } from '../access/principal';

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

/** A form field repeated (array) or given once (string), as uuids; undefined when any is not one. */
function uuids(value: string | string[] | undefined): string[] | undefined {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.every((v) => typeof v === 'string' && UUID.test(v)) ? [...new Set(list)] : undefined;
}

interface ActionForm {
  op?: string;
  runId?: string;
  /** The runs an operator confirmed (hidden inputs of the confirmation page). */
  runIds?: string | string[];
  rule?: string;
  status?: string;
  confirmed?: string;
}

@ApiExcludeController()
@MinRole('viewer')
@Controller('console/failures')
export class ConsoleFailuresController {
  constructor(
    private readonly actionResults: ActionResultsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly operations: FailureOperationsService,
    private readonly pages: ConsoleResponder,
    private readonly names: ContactNamesService,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query() q: Record<string, string>) {
    const filter = this.filterOf(q);
    const since = new Date(Date.now() - SKIPPED_MESSAGES_WINDOW_MS);
    const [actions, events, withoutContact, skipped] = await Promise.all([
      this.actionResults.views.needingAttention({
        statuses: filter.statuses,
        rule: filter.rule,
        limit: LIMIT,
      }),
      this.inbox.views.failed(LIMIT),
      this.inbox.views.withoutContact(LIMIT),
      this.actionResults.views.skippedMessages({ ...MESSAGE_SKIP_KINDS, since, rule: filter.rule }, LIMIT),
    ]);
    const names = await this.names.of([
      ...actions.map((a) => a.contactId),
      ...skipped.map((a) => a.contactId),
      ...events.flatMap((e) => (e.contactId ? [e.contactId] : [])),
    ]);
    const view = {
      filter: { rule: filter.rule ?? '', status: q.status ?? '' },
      statuses: ATTENTION_STATUSES.map((value) => ({ value, selected: value === q.status })),
      operations: actions.some((a) => RETRYABLE.includes(a.status)) ? [{ op: 'retry', label: 'Retry' }] : [],
      actions: actions.map((a) => ({
        ...a,
        at: when(a.finishedAt),
        ...contactShown(a.contactId, names),
        text: actionShown(a.action),
        error: [a.errorCode, a.errorMessage].filter(Boolean).join(': '),
        requestId: a.requestId ?? '',
        ops: RETRYABLE.includes(a.status) ? [{ op: 'retry', label: 'Retry' }] : [],
        resolveOps: a.status === 'uncertain' ? RESOLVE_OPS.map(({ op, label }) => ({ op, label })) : [],
      })),
      events: events.map((e) => ({
        ...e,
        at: when(e.receivedAt),
        ...(e.contactId ? contactShown(e.contactId, names) : { contactHref: '' }),
      })),
      // Customer messages not sent (needs_assignee, blocked, policy...): the run went on without them.
      skipped: skipped.map((a) => ({
        ...a,
        at: when(a.finishedAt),
        ...contactShown(a.contactId, names),
        text: actionShown(a.action),
        why: a.errorMessage ?? '',
        later: a.laterDone.length
          ? `later actions ran anyway: ${a.laterDone.map((i) => `#${i}`).join(', ')}`
          : '',
      })),
      // Custom sources' events no contact was found for: final, listed so someone can act on it.
      withoutContact: withoutContact.map((e) => ({ ...e, at: when(e.receivedAt) })),
    };
    const flash = typeof q.done === 'string' ? q.done : undefined;
    this.pages.send(req, res, 'failures', view, { title: 'Failures', flash });
  }

  /**
   * Retry one run ("Retry") or every run matching the filter ("Retry all"): the first post shows
   * the runs it would retry (at most LIMIT) and carries their ids in the confirmation form; the
   * confirmed post acts on those ids only, never on a new query.
   */
  @MinRole('operator')
  @Post('actions')
  async retryActions(@Req() req: Request, @Res() res: Response, @Body() body: ActionForm) {
    if (body?.op !== 'retry') throw new BadRequestException('op must be retry');
    if (body.confirmed === 'yes') {
      const runIds = uuids(body.runIds);
      if (!runIds || runIds.length === 0 || runIds.length > LIMIT)
        throw new BadRequestException(`runIds must be 1..${LIMIT} uuids (the runs you confirmed)`);
      const { retried, refused } = await this.operations.retryDead({ runIds, includeFailed: true });
      const done =
        `${retried} run(s) queued again` +
        (refused.length
          ? `; ${refused.length} refused: a message may already have reached the customer (${refused[0].reason}); resolve it instead`
          : '');
      return res.redirect(303, `/console/failures?done=${encodeURIComponent(done)}`);
    }
    const single = typeof body.runId === 'string' && UUID.test(body.runId) ? body.runId : undefined;
    const filter = this.filterOf(body);
    const matching = (
      await this.actionResults.views.needingAttention({
        statuses: filter.statuses.filter((s) => RETRYABLE.includes(s)),
        rule: single ? undefined : filter.rule,
        limit: single ? LIMIT : LIMIT + 1,
        ...(single ? { runIds: [single] } : {}),
      })
    ).filter((a) => !single || a.runId === single);
    return this.confirm(req, res, matching, single);
  }

  @MinRole('operator')
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

  /**
   * Replay an event: a failed one goes back to pending; another one only with `force`, and the
   * confirmation lists the customer messages already sent for it (without force they are skipped).
   */
  @MinRole('operator')
  @Post('events')
  async replayEvent(
    @Req() req: Request,
    @Res() res: Response,
    @Body() body: { eventId?: string; confirmed?: string; force?: string },
  ) {
    const id = typeof body?.eventId === 'string' && UUID.test(body.eventId) ? body.eventId : undefined;
    if (!id) throw new BadRequestException('eventId must be a uuid');
    const force = body.force === 'yes';
    if (force) requireRole(req as WithPrincipal, 'admin'); // a forced replay sends customer messages again
    const status = await this.inbox.statusOf(id);
    if (!status) throw new NotFoundException(`event ${id} not found`);
    if (status !== 'failed' && !force)
      throw new BadRequestException(`event ${id} is ${status}, not failed: tick "force" to replay it`);
    if (body.confirmed !== 'yes') {
      const sent = status === 'failed' ? [] : await this.operations.messagesSentFor(id);
      const view = {
        label: force ? 'Replay event (force)' : 'Replay event',
        question:
          status === 'failed'
            ? 'Process this failed event again (back to pending, attempts reset)?'
            : `Evaluate this ${status} event again as a new trigger? These messages were sent (or may have been) for it and go out again:` +
              (sent.length ? '' : ' none.'),
        items: sent.map(
          (m) =>
            `${m.ruleId}: ${actionShown(m.action)} to ${m.contactId}` +
            (m.status === 'succeeded' ? '' : ` (maybe sent: ${m.status})`),
        ),
        action: '/console/failures/events',
        fields: [{ name: 'eventId', value: id }, ...(force ? [{ name: 'force', value: 'yes' }] : [])],
        back: '/console/failures',
      };
      return this.pages.send(req, res, 'confirm', view, { title: 'Confirm', section: 'failures' });
    }
    const replayed = await this.operations.replayEvent(id, { force });
    const done = !replayed
      ? 'event not found'
      : replayed.reset
        ? `event ${id} back to pending`
        : `replayed as ${replayed.replayedAs}${force ? ' (forced)' : ''}`;
    res.redirect(303, `/console/failures?done=${encodeURIComponent(done)}`);
  }

  private confirm(req: Request, res: Response, matching: ActionNeedingAttention[], single?: string) {
    const { runIds, shown: targets, more } = retrySelection(matching, LIMIT);
    const view = {
      label: `Retry ${runIds.length} run(s)`,
      question:
        (single
          ? 'Run this action (and the rest of its run) again?'
          : 'Run every one of these actions (and the rest of their runs) again?') +
        (more
          ? ` More match the filter: only these ${runIds.length} runs are retried; retry the rest afterwards.`
          : '') +
        ' A customer message that may already have been sent is refused (resolve it instead).',
      items: targets.map((a) => `${a.ruleId}: ${actionShown(a.action)} on ${a.contactId} (${a.status})`),
      action: '/console/failures/actions',
      fields: [{ name: 'op', value: 'retry' }, ...runIds.map((value) => ({ name: 'runIds', value }))],
      back: '/console/failures',
    };
    this.pages.send(req, res, 'confirm', view, { title: 'Confirm', section: 'failures' });
  }

  private filterOf(q: { rule?: string; status?: string }) {
    const status = (ATTENTION_STATUSES as readonly string[]).includes(q.status ?? '') ? q.status! : undefined;
    return { rule: q.rule || undefined, statuses: status ? [status] : [...ATTENTION_STATUSES] };
  }
}
