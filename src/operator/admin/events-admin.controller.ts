import {
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { clipJsonDepth } from '../../language/net/json-depth';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { InboxEventsRepository, REPLAY_KEY_PREFIX } from '../../persistence/ledger/inbox-events.repository';
import type { SentForTrigger } from '../../persistence/ledger/action-result-views.repository';
import type { Request } from 'express';
import { MinRole } from '../roles/min-role.decorator';
import { requireRole } from '../access/access.guard';
import type { WithPrincipal } from '../access/principal';
import { FailureOperationsService } from './failure-operations.service';
import { EventExplainer } from '../../pipeline/matching/event-explainer.service';

const EVENT_STATUSES = ['pending', 'processed', 'failed'];

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin/events')
export class EventsAdminController {
  constructor(
    private readonly inbox: InboxEventsRepository,
    private readonly operations: FailureOperationsService,
    private readonly explainer: EventExplainer,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List stored events, newest first (status=failed: those that need an operator)' })
  @ApiQuery({ name: 'status', required: false, enum: EVENT_STATUSES })
  @ApiQuery({ name: 'type', required: false, description: 'event kind, e.g. message.received' })
  @ApiQuery({ name: 'limit', required: false, description: '1..500, default 50' })
  async list(@Query('status') status?: string, @Query('type') type?: string, @Query('limit') limit?: string) {
    const rows = await this.inbox.views.list({
      status,
      type,
      limit: Math.min(Math.max(Number(limit) || 50, 1), 500),
    });
    return { data: rows };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One stored event with its payload, attempts, last error and outcome' })
  async show(@Param('id', ParseUUIDPipe) id: string) {
    const event = await this.inbox.views.show(id);
    if (!event) throw new NotFoundException(`event ${id} not found`);
    // A row stored before intake refused deep payloads would break JSON.stringify (500): cut.
    return { ...event, payload: clipJsonDepth(event.payload) };
  }

  @Get(':id/explain')
  @ApiOperation({
    summary:
      'Why each rule listening to a stored event matched or not, recomputed now from the stored event, its previous contact and the running rule set (an unmatched event keeps only a compact decision)',
  })
  async explain(@Param('id', ParseUUIDPipe) id: string) {
    const row = await this.inbox.views.forExplain(id);
    if (!row) throw new NotFoundException(`event ${id} not found`);
    return this.explainer.explain(row, row.event_key.startsWith(REPLAY_KEY_PREFIX));
  }

  @MinRole('operator')
  @Post(':id/replay')
  @ApiOperation({
    summary:
      'A failed event: back to pending with its attempts reset, processed again. Any other: evaluated again as a new trigger (new runs; once/cooldown still apply); customer messages sent or maybe sent (uncertain, running) for it are skipped (already_sent_for_trigger, listed in `skipped`) unless force=true (query or body; then listed in `sentAgain`)',
  })
  @ApiQuery({ name: 'force', required: false, description: 'true: send the messages already sent again' })
  async replay(
    @Req() req: Request & WithPrincipal,
    @Param('id', ParseUUIDPipe) id: string,
    @Query('force') forceQuery?: string,
    @Body() body?: { force?: unknown },
  ) {
    const force = forceQuery === 'true' || body?.force === true;
    if (force) requireRole(req, 'admin'); // a forced replay sends customer messages again
    // Read before the replay: the messages it skips, or (force) sends again, named in the answer.
    const messages = await this.operations.messagesSentFor(id);
    const replayed = await this.operations.replayEvent(id, { force });
    if (!replayed) throw new NotFoundException(`event ${id} not found`);
    if (replayed.reset) return replayed;
    return { ...replayed, [force ? 'sentAgain' : 'skipped']: messages.map(messageNamed) };
  }
}

/** A message sent or maybe sent for a replayed event, as the admin API names it. */
function messageNamed(m: SentForTrigger) {
  const action = m.action as { type?: string };
  return { ruleId: m.ruleId, contactId: m.contactId, type: action.type, status: m.status };
}
