// Bulk runs through the admin API (the CLI's `crm-rules bulk` and the console use the same service):
// preview a rule for a list of contacts, read a bulk run with its progress, confirm or cancel it.
import {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Req,
} from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ADMIN_API_CALLER } from '../../pipeline/admission/manual-runs/manual-trigger';
import {
  bulkTriggerKey,
  BulkRunsService,
  type BulkRunAnswer,
} from '../../pipeline/bulk-runs/bulk-runs.service';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import type { BulkRunRow } from '../../persistence/ledger/bulk-runs.repository';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { contactLabel } from '../../pipeline/contact-mirror/contact-search-term';
import { manualCaller, type WithPrincipal } from '../access/principal';
import { MinRole } from '../roles/min-role.decorator';

/** Contacts named in a bulk run's answer: enough to recognise the list, the rest are counted. */
const SHOWN_CONTACTS = 20;

@ApiTags('admin')
@ApiSecurity('admin')
@MinRole('viewer')
@Controller('admin')
export class BulkRunsAdminController {
  constructor(
    private readonly bulkRuns: BulkRunsService,
    private readonly runs: RunsRepository,
    private readonly names: ContactNamesService,
  ) {}

  @MinRole('operator')
  @Post('rules/:id/bulk-runs')
  @HttpCode(201)
  @ApiOperation({
    summary:
      "Preview a rule for a list of contacts: { contactIds: [uuid, ...] } (at most 10,000), or for the members of a segment: { segment } (a segment rule's segment.name or rule id, its members as its last sweep stored them). The rule is evaluated on the contact mirror; the answer names who matches and forecasts the CRM calls and minutes at bulk priority. Nothing runs before POST /admin/bulk-runs/:id/confirm",
  })
  async create(@Req() req: Request & WithPrincipal, @Param('id') ruleId: string, @Body() body: unknown) {
    const { contactIds, segment } = (body ?? {}) as { contactIds?: unknown; segment?: unknown };
    const by = manualCaller(req.principal, ADMIN_API_CALLER);
    return this.view(
      segment !== undefined
        ? await this.bulkRuns.createForSegment(ruleId, segment, by)
        : await this.bulkRuns.createForList(ruleId, contactIds, by),
    );
  }

  @Get('bulk-runs')
  @ApiOperation({ summary: 'Bulk runs, newest first: backfills prepared on activation and manual ones' })
  @ApiQuery({ name: 'rule', required: false })
  async list(@Query('rule') rule?: string) {
    const rows = await this.bulkRuns.repository.list({ ruleId: rule || undefined, limit: 100 });
    return { data: rows.map(({ contactIds, ...row }) => ({ ...row, contacts: contactIds.length })) };
  }

  @Get('bulk-runs/:id')
  @ApiOperation({
    summary: 'One bulk run: its state, forecast, the first contacts by name, and its runs by status',
  })
  async show(@Param('id', ParseUUIDPipe) id: string) {
    const row = await this.bulkRuns.repository.find(id);
    if (!row) throw new NotFoundException(`no bulk run ${id}`);
    return this.detail(row);
  }

  @MinRole('operator')
  @Post('bulk-runs/:id/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Confirm a previewed bulk run: its runs are created at bulk priority (once per contact, whatever the retries). 409 unless it waits for a confirmation, or when the rule changed since the preview',
  })
  async confirm(@Req() req: Request & WithPrincipal, @Param('id', ParseUUIDPipe) id: string) {
    return this.view(await this.bulkRuns.confirm(id, manualCaller(req.principal, ADMIN_API_CALLER)));
  }

  @MinRole('operator')
  @Post('bulk-runs/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a previewed bulk run (409 unless it waits for a confirmation)' })
  async cancel(@Req() req: Request & WithPrincipal, @Param('id', ParseUUIDPipe) id: string) {
    return this.view(await this.bulkRuns.cancel(id, manualCaller(req.principal, ADMIN_API_CALLER)));
  }

  private async view(answer: BulkRunAnswer) {
    if (!answer.ok)
      throw new HttpException(
        { statusCode: answer.refusal.status, error: answer.refusal.code, message: answer.refusal.message },
        answer.refusal.status,
      );
    return this.detail(answer.bulkRun);
  }

  private async detail(row: BulkRunRow) {
    const { contactIds, ...rest } = row;
    const shown = contactIds.slice(0, SHOWN_CONTACTS);
    const [names, runs] = await Promise.all([
      this.names.of(shown),
      this.runs.views.statusCountsOfTrigger(bulkTriggerKey(row.id)),
    ]);
    return {
      ...rest,
      contacts: contactIds.length,
      firstContacts: shown.map((id) => ({ id, label: contactLabel(names.get(id), id) })),
      runs,
    };
  }
}
