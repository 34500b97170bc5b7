import {
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  BadRequestException,
  Query,
} from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { MinRole } from '../roles/min-role.decorator';
import { FailureOperationsService, RESOLUTIONS } from './failure-operations.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  'uncertain',
];

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin')
export class RunsAdminController {
  constructor(
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly operations: FailureOperationsService,
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
    const rows = await this.runs.views.list({
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
    const run = await this.runs.views.show(id);
    if (!run) throw new NotFoundException(`run ${id} not found`);
    const actionResults = await this.actionResults.views.forRunView(id);
    return { ...run, actionResults };
  }

  @MinRole('operator')
  @Post('actions/retry-dead')
  @ApiOperation({
    summary:
      'Put dead (and, with includeFailed, failed) actions back to pending and run them again: all, one run (runId) or the runs listed (runIds). A run holding a customer message that may have been sent is refused and listed in `refused` (resolve it instead)',
  })
  async retryDead(@Body() body: { runId?: string; runIds?: string[]; includeFailed?: boolean } = {}) {
    const runIds = body?.runIds;
    const ids = [...(runIds ?? []), ...(body?.runId ? [body.runId] : [])];
    if (
      (runIds !== undefined && !Array.isArray(runIds)) ||
      ids.some((id) => typeof id !== 'string' || !UUID.test(id))
    )
      throw new BadRequestException('runId must be a uuid, runIds an array of uuids');
    return this.operations.retryDead({
      includeFailed: Boolean(body?.includeFailed),
      ...(runIds || body?.runId ? { runIds: ids } : {}),
    });
  }

  @MinRole('operator')
  @Post('actions/:id/resolve')
  @ApiOperation({
    summary:
      'Decide an uncertain message (outcome unknown, never sent twice by the engine): `sent` records it as sent, `send-again` sends it once more, `discard` drops it; sent and send-again continue the run',
  })
  async resolveUncertain(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: { resolution?: string } = {},
  ) {
    const resolution = RESOLUTIONS.find((r) => r === body.resolution);
    if (!resolution) throw new BadRequestException(`resolution must be one of ${RESOLUTIONS.join(', ')}`);
    const decided = await this.operations.resolveUncertain(id, resolution);
    if (!decided) throw new NotFoundException(`no uncertain action ${id}`);
    return { resolution, ...decided };
  }
}
