// "Run for a contact" on the rules page: a form for the contact id, then the dry run's explain
// (nothing written), then a confirmed post (CSRF) that creates the manual run, then the run's
// page. The preview issues an idempotency key the confirmation carries: a second submit of it
// lands on the first run and runs nothing. The work is ManualRunsService's (also behind POST /admin/rules/:id/run).
import { BadRequestException, Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import {
  ManualRunsService,
  type ManualRunExplain,
} from '../../pipeline/admission/manual-runs/manual-runs.service';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
import { ConsoleResponder } from './console-responder';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { manualRunBlocker } from './pages/rule-page';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { contactLabel } from '../../pipeline/contact-mirror/contact-search-term';
import { MinRole } from '../roles/min-role.decorator';
import { manualCaller } from '../access/principal';

@ApiExcludeController()
@MinRole('operator')
@Controller('console/rules')
export class ConsoleManualRunController {
  constructor(
    private readonly manual: ManualRunsService,
    private readonly pages: ConsoleResponder,
    private readonly auth: ConsoleAuth,
    private readonly rules: RuleSetService,
    private readonly names: ContactNamesService,
  ) {}

  /** Without a contact: the form; with one: the preview (a dry run) and the confirmation form. */
  @Get(':id/run')
  async preview(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Param('id') ruleId: string,
    @Query('contactId') rawContact?: string,
  ) {
    const contactId = typeof rawContact === 'string' ? rawContact.trim() : '';
    const ctx = { title: `Run ${ruleId}`, section: 'rules' };
    // A rule a manual run can never match (message triggers, change operators): say why, no form.
    const rule = this.rules.current()?.rule(ruleId);
    const blocker = rule ? manualRunBlocker(rule) : null;
    if (blocker) return this.pages.send(req, res, 'manual-run', { ruleId, blocker }, ctx, 409);
    if (!contactId) return this.pages.send(req, res, 'manual-run', { ruleId, form: { contactId: '' } }, ctx);
    const result = await this.manual.run(ruleId, contactId, { dryRun: true, by: this.by(req) });
    if (!result.ok) return this.refused(req, res, ruleId, contactId, result.refusal);
    const idempotencyKey = result.dryRun ? result.idempotencyKey : ''; // always a dry run here
    const contact = contactLabel(await this.names.one(result.explain.contactId), result.explain.contactId);
    const preview = { ...previewView(result.explain), idempotencyKey, contact };
    return this.pages.send(req, res, 'manual-run', { ruleId, preview }, ctx);
  }

  @Post(':id/run')
  async run(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Param('id') ruleId: string,
    @Body() body: { contactId?: string; confirmed?: string; idempotencyKey?: string },
  ) {
    const contactId = typeof body?.contactId === 'string' ? body.contactId.trim() : '';
    const idempotencyKey = typeof body?.idempotencyKey === 'string' ? body.idempotencyKey : '';
    // Only a post from the preview page runs (confirmed, with the preview's idempotency key):
    // anything else goes back to the preview.
    if (body?.confirmed !== 'yes' || !contactId || !idempotencyKey) {
      if (!contactId) throw new BadRequestException('contactId is required');
      return res.redirect(
        303,
        `/console/rules/${encodeURIComponent(ruleId)}/run?contactId=${encodeURIComponent(contactId)}`,
      );
    }
    // The same confirmation submitted twice finds the first run (repeated) and lands on it.
    const result = await this.manual.run(ruleId, contactId, {
      dryRun: false,
      by: this.by(req),
      idempotencyKey,
    });
    if (!result.ok) return this.refused(req, res, ruleId, contactId, result.refusal);
    if (result.dryRun) throw new BadRequestException('not run'); // never: dryRun was false
    res.redirect(303, `/console/runs/${result.run.id}`);
  }

  /** Who asked, as the run records it: the user (email/id), or `console` for the admin token. */
  private by(req: ConsoleRequest): string {
    return manualCaller(req.principal, 'console');
  }

  /** The form again, with why the run was refused (unknown contact, a segment rule, ...). */
  private refused(
    req: ConsoleRequest,
    res: Response,
    ruleId: string,
    contactId: string,
    refusal: { status: number; message: string },
  ) {
    const ctx = { title: `Run ${ruleId}`, section: 'rules' };
    const form = { contactId, refusal: refusal.message };
    return this.pages.send(req, res, 'manual-run', { ruleId, form }, ctx, refusal.status);
  }
}

function previewView(explain: ManualRunExplain) {
  return {
    contactId: explain.contactId,
    matched: explain.matched,
    paused: explain.paused,
    shadow: explain.mode === 'shadow',
    lines: explain.lines,
    actions: explain.actions.map((a) => ({
      type: a.type,
      verdict: a.verdict.replace('_', ' '),
      why: a.reason ? `${a.reason}: ${a.detail ?? ''}` : (a.detail ?? ''),
    })),
  };
}
