// The rules page and the operators' switches (pause/resume, shadow on/off).
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import type { RuleDefinition } from '../../language/rules/format/rule-types';
import { ConsoleAuth, type ConsoleRequest } from './auth/console-auth';
import { ConsoleResponder } from './console-responder';
import { statusTone, when } from './pages/display-format';
import { parsePeriod, PERIODS, periodStart, type Period } from './period';
import { branchChart, branchSummary, CHART_BUCKET_MS } from './pages/branch-counts';
import { manualRunBlocker } from './pages/rule-page';
import { splitExperimentLines } from './pages/experiment-lines';
import { splitReadouts } from '../admin/split-readouts';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import type { RuleControlChange } from '../../runtime/rule-controls/rule-control-audit.entity';
import { RuleControlsRepository } from '../../runtime/rule-controls/rule-controls.repository';
import { RuleControlsService } from '../../runtime/rule-controls/rule-controls.service';
import { MinRole } from '../roles/min-role.decorator';

const CHANGES: RuleControlChange[] = ['pause', 'resume', 'shadow-on', 'shadow-off'];
const LAST_RUNS = 5;

function triggerOf(rule: RuleDefinition): string {
  const t = rule.trigger;
  return t.kind === 'event'
    ? `on ${t.events.join(', ')}`
    : `cron ${t.cron}${t.timezone ? ` (${t.timezone})` : ''}`;
}

@ApiExcludeController()
@MinRole('viewer')
@Controller('console/rules')
export class ConsoleRulesController {
  constructor(
    private readonly runs: RunsRepository,
    private readonly rules: RuleSetService,
    private readonly controls: RuleControlsService,
    private readonly audit: RuleControlsRepository,
    private readonly pages: ConsoleResponder,
    private readonly auth: ConsoleAuth,
  ) {}

  @Get()
  async list(@Req() req: ConsoleRequest, @Res() res: Response, @Query('period') rawPeriod?: string) {
    const period = parsePeriod(rawPeriod, '24h');
    const since = periodStart(period);
    const [counts, last, audit] = await Promise.all([
      this.runs.views.countsByRule(since),
      this.runs.views.latestPerRule(since, LAST_RUNS),
      this.audit.audit(50),
    ]);
    const set = this.rules.current();
    const byRule = new Map(counts.map((c) => [c.ruleId, c]));
    // Rules with branches or a goal (few): their runs per arm and goal conversions in the period.
    const branched = (set?.rules ?? []).filter((r) => r.branches || r.goal);
    const perArm = new Map(await Promise.all(branched.map((r) => this.armsOf(r, since, period))));
    const zero = { matched: 0, notMatched: 0, suppressed: 0, paused: 0, failed: 0 };
    const view = {
      ruleSetVersion: set?.version ?? 'none loaded',
      periods: Object.keys(PERIODS).map((value) => ({ value, selected: value === period })),
      rules: (set?.rules ?? []).map((rule) => {
        const control = this.controls.all().get(rule.id);
        const mode = this.controls.modeOf(rule);
        return {
          id: rule.id,
          version: rule.version.slice(0, 12),
          file: `${rule.source.file}:${rule.source.line}`,
          trigger: triggerOf(rule),
          enabled: rule.enabled,
          // Only where a manual run can match (pages/rule-page.ts): not segment, message or change rules.
          manualRun: manualRunBlocker(rule) === null,
          paused: control?.paused ?? false,
          forcedShadow: control?.shadow ?? false,
          mode: control?.shadow && rule.mode === 'live' ? 'shadow (forced)' : mode,
          modeTone: mode === 'shadow' ? 'warn' : 'ok',
          counts: byRule.get(rule.id) ?? zero,
          branches: perArm.get(rule.id),
          lastRuns: last
            .filter((r) => r.ruleId === rule.id)
            .map((r) => ({
              id: r.id,
              status: r.reason === 'paused' ? 'paused' : r.status,
              tone: statusTone(r.status, r.reason),
              at: when(r.createdAt),
            })),
        };
      }),
      audit: audit.map((a) => ({ ...a, at: when(a.at) })),
    };
    this.pages.send(req, res, 'rules', view, {
      title: 'Rules',
      ...(branched.length > 0 ? { uplot: true, scripts: ['uPlot.iife.min.js', 'branch-chart.js'] } : {}),
      flash: typeof req.query.done === 'string' ? req.query.done : undefined,
    });
  }

  /** A rule's runs per arm and goal conversions in the period, and its chart's data (JSON for branch-chart.js). */
  private async armsOf(rule: RuleDefinition, since: Date, period: Period) {
    const bucketMs = CHART_BUCKET_MS[period];
    // A split with a goal is an experiment: each split's readout against its control arm (experiment-lines.ts).
    const isExperiment = !!rule.goal && !!rule.branches?.some((b) => b.kind === 'split');
    const [counts, buckets, perBranch] = await Promise.all([
      this.runs.views.branchCounts(rule.id, since),
      this.runs.views.branchBuckets(rule.id, since, bucketMs),
      isExperiment ? this.runs.views.armCountsByBranch(rule.id, since) : [],
    ]);
    const chart = branchChart(buckets, !!rule.goal, { since, now: new Date(), bucketMs });
    const experiment = isExperiment ? splitExperimentLines(splitReadouts(rule.branches, perBranch)) : [];
    return [
      rule.id,
      { ...branchSummary(counts, !!rule.goal), experiment, chart: JSON.stringify(chart) },
    ] as const;
  }

  @MinRole('operator')
  @Post(':id/control')
  async control(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @Body() body: { change?: string; note?: string; back?: string },
  ) {
    const change = body?.change as RuleControlChange;
    if (!CHANGES.includes(change))
      throw new BadRequestException(`change must be one of ${CHANGES.join(', ')}`);
    if (!this.rules.current()?.rule(id)) throw new NotFoundException(`no rule ${id} in the running set`);
    const note = typeof body.note === 'string' && body.note.trim() ? body.note.trim().slice(0, 200) : null;
    await this.controls.change(id, change, this.auth.actor(req), note);
    // From the rule's own page, back to it; from the list, back to the list.
    const back = body.back === 'rule' ? `/console/rules/${encodeURIComponent(id)}` : '/console/rules';
    res.redirect(303, `${back}?done=${encodeURIComponent(`${id}: ${change}`)}`);
  }
}
