import { InjectQueue } from '@nestjs/bullmq';
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
import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ACTIONS_QUEUE,
  ActionJobData,
  actionJobOptions,
  EVENTS_QUEUE,
  EventJobData,
  eventJobId,
} from '../queues/queues';
import { AdminTokenGuard } from './admin-token.guard';

const RUN_STATUSES = ['not_matched', 'suppressed', 'pending', 'running', 'succeeded', 'failed', 'dead'];

@ApiTags('admin')
@ApiSecurity('admin')
@UseGuards(AdminTokenGuard)
@Controller('admin')
export class RunsAdminController {
  constructor(
    private readonly db: DataSource,
    @InjectQueue(EVENTS_QUEUE) private readonly events: Queue<EventJobData>,
    @InjectQueue(ACTIONS_QUEUE) private readonly actions: Queue<ActionJobData>,
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
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (rule) add('rule_id = ?', rule);
    if (contact) add('contact_id = ?', contact);
    if (status) add('status = ?', status);
    if (since) add('created_at >= ?', new Date(since));
    if (until) add('created_at < ?', new Date(until));
    const n = Math.min(Math.max(Number(limit) || 50, 1), 500);
    const rows = await this.db.query(
      `SELECT id, trigger_key AS "triggerKey", rule_id AS "ruleId", rule_version AS "ruleVersion", contact_id AS "contactId",
              status, reason, mode, created_at AS "createdAt", finished_at AS "finishedAt"
         FROM runs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC LIMIT ${n}`,
      params,
    );
    return { data: rows };
  }

  @Get('runs/:id')
  @ApiOperation({ summary: 'One run with its explain trace and action results' })
  async show(@Param('id', ParseUUIDPipe) id: string) {
    const [run] = await this.db.query(
      `SELECT id, trigger_key AS "triggerKey", inbox_event_id AS "inboxEventId", rule_id AS "ruleId", rule_version AS "ruleVersion",
              rule_set_version AS "ruleSetVersion", contact_id AS "contactId", status, reason, mode, trace, actions,
              correlation_id AS "correlationId", created_at AS "createdAt", finished_at AS "finishedAt"
         FROM runs WHERE id = $1`,
      [id],
    );
    if (!run) throw new NotFoundException(`run ${id} not found`);
    const actionResults = await this.db.query(
      `SELECT action_index AS "index", action, status, reason, error_code AS "errorCode", error_message AS "errorMessage",
              http_status AS "httpStatus", request_id AS "requestId", attempts, started_at AS "startedAt",
              finished_at AS "finishedAt", duration_ms AS "durationMs"
         FROM action_results WHERE run_id = $1 ORDER BY action_index`,
      [id],
    );
    return { ...run, actionResults };
  }

  @Post('events/:id/replay')
  @ApiOperation({
    summary: 'Evaluate a stored event again as a new trigger (new runs; once/cooldown still apply)',
  })
  async replay(@Param('id', ParseUUIDPipe) id: string) {
    const [copy] = await this.db.query(
      `INSERT INTO inbox_events (event_key, type, payload, contact_id)
       SELECT 'replay:' || $2 || ':' || event_key, type, payload, contact_id FROM inbox_events WHERE id = $1
       RETURNING id`,
      [id, randomUUID()],
    );
    if (!copy) throw new NotFoundException(`event ${id} not found`);
    await this.events.add(
      'event',
      { inboxEventId: copy.id, correlationId: randomUUID() },
      { jobId: eventJobId(copy.id) },
    );
    return { replayedAs: copy.id };
  }

  @Post('actions/retry-dead')
  @ApiOperation({
    summary: 'Put dead (and, with includeFailed, failed) actions back to pending and run them again',
  })
  async retryDead(@Body() body: { runId?: string; includeFailed?: boolean } = {}) {
    const statuses = body.includeFailed ? ['dead', 'failed'] : ['dead'];
    const runs: { id: string; contact_id: string; bulk: boolean }[] = await this.db.transaction(
      async (tx) => {
        const rows = await tx.query(
          `UPDATE runs SET status = 'pending', finished_at = NULL, updated_at = now()
          WHERE status = ANY($1) AND ($2::uuid IS NULL OR id = $2)
          RETURNING id, contact_id, trigger_key LIKE 'sweep%' AS bulk`,
          [statuses, body.runId ?? null],
        );
        const ids = rows[0].map((r: { id: string }) => r.id);
        await tx.query(
          `UPDATE action_results SET status = 'pending', finished_at = NULL
          WHERE run_id = ANY($1) AND (status = ANY($2) OR reason = 'previous_action_failed')`,
          [ids, statuses],
        );
        return rows[0];
      },
    );
    for (const r of runs) {
      await this.actions.add(
        'run',
        { runId: r.id, contactId: r.contact_id, priority: r.bulk ? 'bulk' : 'interactive' },
        actionJobOptions(r.id),
      );
    }
    return { retried: runs.length };
  }
}
