// Bulk runs in the console: a rule page's form previews a rule for a list of contacts; a bulk
// run's page shows who and what it costs, with Confirm and Cancel for an operator. Backfills
// prepared on activation land here too (the rule page lists them). The work is BulkRunsService's.
import { Body, Controller, Get, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUuid } from '@crm-rules/crm-contract';
import type { Response } from 'express';
import {
  bulkTriggerKey,
  BulkRunsService,
  type BulkRunAnswer,
} from '../../pipeline/bulk-runs/bulk-runs.service';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { contactLabel } from '../../pipeline/contact-mirror/contact-search-term';
import type { ConsoleRequest } from './auth/console-auth';
import { ConsoleResponder } from './console-responder';
import { bulkRunPage, pastedIds } from './pages/bulk-run-page';
import { contactHref } from './pages/display-format';
import { manualCaller } from '../access/principal';
import { MinRole } from '../roles/min-role.decorator';

const SHOWN = 50;

@ApiExcludeController()
@MinRole('viewer')
@Controller('console')
export class ConsoleBulkRunsController {
  constructor(
    private readonly bulkRuns: BulkRunsService,
    private readonly runs: RunsRepository,
    private readonly names: ContactNamesService,
    private readonly pages: ConsoleResponder,
  ) {}

  @Get('bulk-runs/:id')
  async page(@Req() req: ConsoleRequest, @Res() res: Response, @Param('id') id: string) {
    return this.show(req, res, id);
  }

  @MinRole('operator')
  @Post('rules/:id/bulk-runs')
  async create(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Param('id') ruleId: string,
    @Body() body: { contactIds?: string; segment?: string },
  ) {
    const segment = typeof body?.segment === 'string' ? body.segment.trim() : '';
    const answer = segment
      ? await this.bulkRuns.createForSegment(ruleId, segment, this.by(req))
      : await this.bulkRuns.createForList(ruleId, pastedIds(body?.contactIds), this.by(req));
    if (!answer.ok) {
      const ctx = { title: `Bulk run of ${ruleId}`, section: 'rules' };
      return this.pages.send(
        req,
        res,
        'bulk-run',
        { ruleId, refusal: answer.refusal.message },
        ctx,
        answer.refusal.status,
      );
    }
    res.redirect(303, `/console/bulk-runs/${answer.bulkRun.id}`);
  }

  @MinRole('operator')
  @Post('bulk-runs/:id/confirm')
  async confirm(@Req() req: ConsoleRequest, @Res() res: Response, @Param('id') id: string) {
    return this.decided(req, res, id, await this.bulkRuns.confirm(id, this.by(req)));
  }

  @MinRole('operator')
  @Post('bulk-runs/:id/cancel')
  async cancel(@Req() req: ConsoleRequest, @Res() res: Response, @Param('id') id: string) {
    return this.decided(req, res, id, await this.bulkRuns.cancel(id, this.by(req)));
  }

  private async decided(req: ConsoleRequest, res: Response, id: string, answer: BulkRunAnswer) {
    if (answer.ok) return res.redirect(303, `/console/bulk-runs/${id}`);
    if (answer.refusal.status !== 409) throw new NotFoundException(answer.refusal.message);
    // Confirmed or cancelled meanwhile (another operator), or the rule changed: the page says so.
    return this.show(req, res, id, answer.refusal.message, 409);
  }

  private async show(req: ConsoleRequest, res: Response, id: string, flash?: string, status = 200) {
    const row = isUuid(id) ? await this.bulkRuns.repository.find(id) : undefined;
    if (!row) throw new NotFoundException(`no bulk run ${id}`);
    const shown = row.contactIds.slice(0, SHOWN);
    const [names, runs] = await Promise.all([
      this.names.of(shown),
      this.runs.views.statusCountsOfTrigger(bulkTriggerKey(row.id)),
    ]);
    const contacts = shown.map((c) => ({
      id: c,
      label: contactLabel(names.get(c), c),
      href: contactHref(c),
    }));
    const view = { ruleId: row.ruleId, bulk: { ...bulkRunPage(row, contacts, runs), flash } };
    this.pages.send(
      req,
      res,
      'bulk-run',
      view,
      { title: `Bulk run of ${row.ruleId}`, section: 'rules' },
      status,
    );
  }

  private by(req: ConsoleRequest): string {
    return manualCaller(req.principal, 'console');
  }
}
