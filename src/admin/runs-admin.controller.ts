import {
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ActionResultsRepository } from '../ledger/action-results.repository';
import { InboxEventsRepository } from '../ledger/inbox-events.repository';
import { RunsRepository } from '../ledger/runs.repository';
import { ActionsQueue } from '../queues/actions-queue.service';
import { EventsQueue } from '../queues/events-queue.service';
import { AdminTokenGuard } from './admin-token.guard';

const RUN_STATUSES = [
  'not_matched',
  'suppressed',
  'pending',
  'running',
  'waiting',
  'cancelled',
  'succeeded',
  'failed',
  'dead',
];

@ApiTags('admin')
@ApiSecurity('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin')
export class RunsAdminController {
  constructor(
    private readonly db: DataSource,
    private readonly inbox: InboxEventsRepository,
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly events: EventsQueue,
    private readonly actions: ActionsQueue,
  ) {}

  @Get('runs')
  @ApiOperation({ summary: 'List runs, newest first, filtered by rule, contact, status and time' })
  @ApiQuery({ name: 'rule', required: false })
  @ApiQuery({ name: 'contact', required: false })
  @ApiQuery({ name: 'status', required: false, enum: RUN_STATUSES })
  @ApiQuery({ name: 'since', required: false, description: 'ISO date-time' })
  @ApiQuery({ name: 'until', required: false, description: 'ISO date-time' })
  @ApiQuery({ name: 'limit', required: false, description: '1..500, default 50' })
  async list(
    @Query('rule') rule?: string,
    @Query('contact') contact?: string,
    @Query('status') status?: string,
    @Query('since') since?: string,
    @Query('until') until?: string,
    @Query('limit') limit?: string,
  ) {
    const rows = await this.runs.list({
      rule,
      contact,
      status,
      since: since ? new Date(since) : undefined,
      until: until ? new Date(until) : undefined,
      limit: Math.min(Math.max(Number(limit) || 50, 1), 500),
    });
    return { data: rows };
  }

  @Get('runs/:id')
  @ApiOperation({ summary: 'One run with its explain trace and action results' })
  async show(@Param('id', ParseUUIDPipe) id: string) {
    const run = await this.runs.show(id);
    if (!run) throw new NotFoundException(`run ${id} not found`);
    const actionResults = await this.actionResults.forRunView(id);
    return { ...run, actionResults };
  }

  @Post('events/:id/replay')
  @ApiOperation({
    summary: 'Evaluate a stored event again as a new trigger (new runs; once/cooldown still apply)',
  })
  async replay(@Param('id', ParseUUIDPipe) id: string) {
    const copy = await this.inbox.insertReplayCopy(id, randomUUID());
    if (!copy) throw new NotFoundException(`event ${id} not found`);
    await this.events.add(copy);
    return { replayedAs: copy };
  }

  @Post('actions/retry-dead')
  @ApiOperation({
    summary: 'Put dead (and, with includeFailed, failed) actions back to pending and run them again',
  })
  async retryDead(@Body() body: { runId?: string; includeFailed?: boolean } = {}) {
    const statuses = body.includeFailed ? ['dead', 'failed'] : ['dead'];
    const runs = await this.db.transaction(async (tx) => {
      const reopened = await this.runs.in(tx).reopen(statuses, body.runId ?? null);
      await this.actionResults.in(tx).reopen(
        reopened.map((r) => r.id),
        statuses,
      );
      return reopened;
    });
    // ensure, not add: a finished job of the same id would make the add a no-op.
    for (const run of runs) await this.actions.ensure(run);
    return { retried: runs.length };
  }
}
