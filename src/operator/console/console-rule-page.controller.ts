// One rule's page, /console/rules/<id>: its description, its YAML (highlighted on the server, as
// the running set has it), its arms and goal conversions, its recent runs and skipped messages,
// its customer messages per category (category-messages.ts), the pause / shadow controls, and "Run for a contact" only where a manual run can match (else
// why not). An id the running set does not have answers the console's HTML 404 page.
import { BulkRunsService } from '../../pipeline/bulk-runs/bulk-runs.service';
import { bulkRunSummary } from './pages/bulk-run-page';
import { categoryMessageRows } from './pages/category-messages';
import { CUSTOMER_MESSAGE_TYPES } from '../../language/policy/customer-messages';
import { splitExperimentLines } from './pages/experiment-lines';
import { splitReadouts } from '../admin/split-readouts';
import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { MinRole } from '../roles/min-role.decorator';
import type { Response } from 'express';
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import type { RuleDefinition } from '../../language/rules/format/rule-types';
import type { ConsoleRequest } from './auth/console-auth';
import { ConsoleResponder } from './console-responder';
import { actionShown, contactShown, statusText, statusTone, triggerText, when } from './pages/display-format';
import { parsePeriod, PERIODS, periodStart } from './period';
import { branchSummary } from './pages/branch-counts';
import { manualRunBlocker, ruleDocument } from './pages/rule-page';
import { highlightYaml } from './pages/yaml-highlight';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import type { RunListRow } from '../../persistence/ledger/run-rows';
import { RuleControlsService } from '../../runtime/rule-controls/rule-controls.service';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { MESSAGE_SKIP_KINDS } from '../../language/policy/message-skips';

const RECENT = 20;

function triggerOf(rule: RuleDefinition): string {
  const t = rule.trigger;
  return t.kind === 'event'
    ? `on ${t.events.join(', ')}`
    : `cron ${t.cron}${t.timezone ? ` (${t.timezone})` : ''}`;
}

@ApiExcludeController()
@MinRole('viewer')
@Controller('console/rules')
export class ConsoleRulePageController {
  constructor(
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly rules: RuleSetService,
    private readonly controls: RuleControlsService,
    private readonly names: ContactNamesService,
    private readonly pages: ConsoleResponder,
    private readonly bulkRuns: BulkRunsService,
  ) {}

  @Get(':id')
  async rule(
    @Req() req: ConsoleRequest,
    @Res() res: Response,
    @Param('id') id: string,
    @Query('period') rawPeriod?: string,
  ) {
    const set = this.rules.current();
    const rule = set?.rule(id);
    if (!rule) {
      const view = {
        what: `rule “${id}”`,
        why: 'The running rule set has no rule with this id.',
        back: '/console/rules',
      };
      return this.pages.send(req, res, 'not-found', view, { title: 'Not found', section: 'rules' }, 404);
    }
    const period = parsePeriod(rawPeriod, '24h');
    const since = periodStart(period);
    // A split with a goal is an experiment: each split read out against its control (split-readouts.ts).
    const isExperiment = !!rule.goal && !!rule.branches?.some((b) => b.kind === 'split');
    const [counts, arms, perBranch, byCategory, recent, skipped, yaml, bulk] = await Promise.all([
      this.runs.views.countsByRule(since),
      rule.branches || rule.goal ? this.runs.views.branchCounts(rule.id, since) : undefined,
      isExperiment ? this.runs.views.armCountsByBranch(rule.id, since) : [],
      this.actionResults.views.messageCountsByCategory(rule.id, CUSTOMER_MESSAGE_TYPES, since),
      this.runs.views.list({
        rule: rule.id,
        hideNotMatched: true,
        skipsOf: MESSAGE_SKIP_KINDS,
        limit: RECENT,
      }),
      this.actionResults.views.skippedMessages({ ...MESSAGE_SKIP_KINDS, since, rule: rule.id }, RECENT),
      this.yamlOf(rule),
      this.bulkRuns.repository.list({ ruleId: rule.id, limit: RECENT }),
    ]);
    const rows = recent as unknown as RunListRow[];
    const names = await this.names.of([...rows.map((r) => r.contactId), ...skipped.map((s) => s.contactId)]);
    const control = this.controls.all().get(rule.id);
    const mode = this.controls.modeOf(rule);
    const paused = control?.paused ?? false;
    const blocker = manualRunBlocker(rule);
    const view = {
      id: rule.id,
      description: rule.description ?? '',
      version: rule.version.slice(0, 12),
      ruleSetVersion: set?.version ?? '',
      file: `${rule.source.file}:${rule.source.line}`,
      trigger: triggerOf(rule),
      // A paused rule acts in no mode: the page says paused, and which mode it resumes in.
      state: paused
        ? { text: 'paused', tone: 'bad', note: `resumes ${mode}` }
        : {
            text: control?.shadow && rule.mode === 'live' ? 'shadow (forced)' : mode,
            tone: mode === 'shadow' ? 'warn' : 'ok',
            note: '',
          },
      enabled: rule.enabled,
      paused,
      forcedShadow: control?.shadow ?? false,
      periods: Object.keys(PERIODS).map((value) => ({ value, selected: value === period })),
      counts: counts.find((c) => c.ruleId === rule.id) ?? {
        matched: 0,
        notMatched: 0,
        suppressed: 0,
        paused: 0,
        failed: 0,
      },
      branches: arms
        ? {
            ...branchSummary(arms, !!rule.goal),
            experiment: isExperiment ? splitExperimentLines(splitReadouts(rule.branches, perBranch)) : [],
          }
        : undefined,
      yaml,
      categories: categoryMessageRows(byCategory, set?.policy),
      manualRun: blocker === null,
      // Bulk runs need a rule judged on a contact alone, as manual runs do (contactOnlyBlocker).
      bulkRuns: bulk.map(bulkRunSummary),
      manualRunBlocker: blocker ?? '',
      recent: rows.map((r) => ({
        ...r,
        ...contactShown(r.contactId, names),
        at: when(r.createdAt),
        trigger: triggerText(r.triggerKey),
        tone: statusTone(r.status, r.reason, r.messageSkipped),
        statusText: statusText(r.status, r.reason, r.messageSkipped),
      })),
      skipped: skipped.map((s) => ({
        ...s,
        ...contactShown(s.contactId, names),
        at: when(s.finishedAt),
        text: actionShown(s.action),
        why: s.errorMessage ?? '',
        later: s.laterDone.length
          ? `later actions ran anyway: ${s.laterDone.map((i) => `#${i}`).join(', ')}`
          : '',
      })),
    };
    const flash = typeof req.query.done === 'string' ? req.query.done : undefined;
    this.pages.send(req, res, 'rule', view, { title: `Rule ${rule.id}`, section: 'rules', flash });
  }

  /** The rule's document of its file, highlighted; a note instead when the file cannot be read. */
  private async yamlOf(rule: RuleDefinition) {
    const path = isAbsolute(rule.source.file) ? rule.source.file : resolve(rule.source.file);
    try {
      const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
      const doc = ruleDocument(text, rule.source.line);
      // The running set is what acts: a file edited since (a reload refused, or watching off) says so.
      const loadedAt = this.rules.status().loadedAt;
      const changed = loadedAt !== undefined && info.mtime > new Date(loadedAt);
      const note = changed
        ? `${rule.source.file} changed after the running set was loaded (${loadedAt}): the file as it is now, the running rule may differ`
        : '';
      return { lines: highlightYaml(doc.text, doc.firstLine), error: note };
    } catch (err) {
      // The file moved or went since the set was loaded (a reload will say so); the page still shows.
      return {
        lines: [],
        error: `cannot read ${rule.source.file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      };
    }
  }
}
