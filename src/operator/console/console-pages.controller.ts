// Read-only pages: overview, budget, runs, one run, contact timeline.
import { describeCategoryCounts } from './pages/category-counts';
import { Controller, Get, Inject, NotFoundException, Param, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { RuleSetService } from '../../runtime/rule-set/rule-set.service';
import { ConsoleResponder } from './console-responder';
import { ContactJournalRepository } from '../../persistence/journal/contact-journal.repository';
import { BudgetFeed } from './live/budget-feed.service';
import { formatDuration } from './live/backlog-eta';
import { ACTION_STATUSES, OverviewFeed, RUN_STATUSES } from './live/overview-feed.service';
import {
  contactHref,
  contactShown,
  fromInputTime,
  statusText,
  statusTone,
  toInputTime,
  triggerText,
  when,
} from './pages/display-format';
import { RunDetail, runPage } from './pages/run-page';
import { buildTimeline } from './pages/timeline';
import { describeMessageCounts, messageCounts, messagePeriods } from './pages/message-counts';
import { CUSTOMER_MESSAGE_TYPES } from '../../language/policy/customer-messages';
import { ActionResultsRepository } from '../../persistence/ledger/action-results.repository';
import { InboxEventsRepository } from '../../persistence/ledger/inbox-events.repository';
import type { RunListRow } from '../../persistence/ledger/run-rows';
import { RunsRepository } from '../../persistence/ledger/runs.repository';
import { ContactNamesService } from '../../pipeline/contact-mirror/contact-names.service';
import { contactLabel } from '../../pipeline/contact-mirror/contact-search-term';
import { MESSAGE_SKIP_KINDS } from '../../language/policy/message-skips';
import { ModuleRef } from '@nestjs/core';
import { DELIVERY_HEALTH, type DeliveryHealth } from '../ops/delivery-health';
import { MinRole } from '../roles/min-role.decorator';

/** Per source of the contact timeline: enough for a page; the newest are kept. */
const TIMELINE_LIMIT = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@ApiExcludeController()
@MinRole('viewer')
@Controller('console')
export class ConsolePagesController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly runs: RunsRepository,
    private readonly actionResults: ActionResultsRepository,
    private readonly inbox: InboxEventsRepository,
    private readonly rules: RuleSetService,
    private readonly pages: ConsoleResponder,
    private readonly overview: OverviewFeed,
    private readonly budget: BudgetFeed,
    private readonly journal: ContactJournalRepository,
    private readonly names: ContactNamesService,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Shown on the overview while the CRM is not delivering events (subscription disabled or missing). */
  private async deliveryProblem(): Promise<{ message: string } | undefined> {
    const delivery = this.moduleRef.get<DeliveryHealth>(DELIVERY_HEALTH, { strict: false });
    const state = await delivery.state();
    return state.delivering ? undefined : { message: `${state.status}: ${state.message}` };
  }

  @Get()
  async home(@Req() req: Request, @Res() res: Response) {
    const s = await this.overview.snapshot();
    const list = (names: string[], counts: Record<string, number>) =>
      names.map((name) => ({ name, count: counts[name] ?? 0 }));
    const view = {
      ...s,
      period: 'hour',
      runs: list(RUN_STATUSES, s.runs),
      actions: list(ACTION_STATUSES, s.actions),
      queues: Object.entries(s.queues).map(([name, c]) => ({ name, ...c })),
      deliveryProblem: await this.deliveryProblem(),
    };
    this.pages.send(req, res, 'overview', view, { title: 'Overview', scripts: ['live.js'] });
  }

  @Get('budget')
  async budgetPage(@Req() req: Request, @Res() res: Response) {
    const s = await this.budget.sample();
    const view = {
      ...s,
      windowSeconds: Math.round(this.config.crm.budget.windowMs / 1000),
      bulkSharePercent: Math.round(this.config.crm.budget.bulkMinShare * 100),
      pause: s.pauseRemainingMs ? formatDuration(s.pauseRemainingMs) : 'none',
      eta: { interactive: formatDuration(s.eta.interactiveMs), bulk: formatDuration(s.eta.bulkMs) },
    };
    this.pages.send(req, res, 'budget', view, {
      title: 'Budget',
      uplot: true,
      scripts: ['uPlot.iife.min.js', 'live.js', 'budget.js'],
    });
  }

  @Get('runs')
  async runList(@Req() req: Request, @Res() res: Response, @Query() q: Record<string, string>) {
    const since = fromInputTime(q.since);
    const until = fromInputTime(q.until);
    const bad = since === 'invalid' || until === 'invalid';
    const contact = typeof q.contact === 'string' ? q.contact.trim() : '';
    // An id as it is; anything else is a name, phone or email looked up in the mirror.
    const found = contact && !UUID.test(contact) ? await this.names.search(contact) : undefined;
    const showNotMatched = q.notMatched === 'show';
    const filter = {
      rule: q.rule || undefined,
      contact: found ? undefined : contact || undefined,
      contacts: found?.map((c) => c.id),
      status: q.status || undefined,
      since: since === 'invalid' ? undefined : since,
      until: until === 'invalid' ? undefined : until,
    };
    const rows = bad
      ? []
      : ((await this.runs.views.list({
          ...filter,
          hideNotMatched: !showNotMatched,
          skipsOf: MESSAGE_SKIP_KINDS,
          limit: 200,
        })) as unknown as RunListRow[]);
    const names = await this.names.of(rows.map((r) => r.contactId));
    const toggle = new URLSearchParams({ ...q, notMatched: showNotMatched ? '' : 'show' });
    const view = {
      filter: { ...filter, contact, since: toInputTime(filter.since), until: toInputTime(filter.until) },
      error: bad ? 'Since / until must be date-times (UTC).' : undefined,
      noContact: found?.length === 0 ? contact : undefined,
      foundContacts: found && found.length > 0 ? found.map((c) => contactLabel(c, c.id)).join(', ') : '',
      notMatchedHidden: !showNotMatched && !filter.status,
      toggleNotMatched: `/console/runs?${toggle.toString()}`,
      statuses: RUN_STATUSES.map((value) => ({ value, selected: value === filter.status })),
      runs: rows.map((r) => ({
        ...r,
        ...contactShown(r.contactId, names),
        createdAt: when(r.createdAt),
        trigger: triggerText(r.triggerKey),
        tone: statusTone(r.status, r.reason, r.messageSkipped),
        statusText: statusText(r.status, r.reason, r.messageSkipped),
      })),
    };
    this.pages.send(req, res, 'runs', view, { title: 'Runs' }, bad ? 400 : 200);
  }

  @Get('runs/:id')
  async run(@Req() req: Request, @Res() res: Response, @Param('id') id: string) {
    const run = UUID.test(id) ? ((await this.runs.views.show(id)) as RunDetail | undefined) : undefined;
    if (!run) throw new NotFoundException(`no run ${id}`);
    const inboxEventId = (run as unknown as { inboxEventId: string | null }).inboxEventId;
    run.eventType = inboxEventId ? (await this.inbox.find(inboxEventId))?.type : null;
    const [actions, journal, contact] = await Promise.all([
      this.actionResults.views.forRunView(id),
      this.journal.forContact(run.contactId, TIMELINE_LIMIT),
      this.names.one(run.contactId),
    ]);
    const waits = new Map<number, number>();
    for (const j of journal) {
      const d = j.detail as { runId?: string; index?: number; waitedMs?: number };
      if (j.kind === 'crm.call' && d.runId === id && typeof d.index === 'number')
        waits.set(d.index, (waits.get(d.index) ?? 0) + (d.waitedMs ?? 0));
    }
    const view = runPage(run, actions, this.rules.current()?.rule(run.ruleId), waits, contact);
    const title = `Run ${run.ruleId}${contact ? ` for ${contact.name}` : ''}`;
    this.pages.send(req, res, 'run', view, { title, section: 'runs' });
  }

  @Get('contacts')
  async contactSearch(@Req() req: Request, @Res() res: Response, @Query('id') raw?: string) {
    const typed = typeof raw === 'string' ? raw.trim() : '';
    if (UUID.test(typed)) return res.redirect(303, contactHref(typed));
    // A name, phone or email: the mirror's contacts that match; one match opens its timeline.
    const found = typed ? await this.names.search(typed) : [];
    if (found.length === 1) return res.redirect(303, contactHref(found[0].id));
    const recent = (await this.runs.views.list({ limit: 20 })) as unknown as RunListRow[];
    const recentIds = [...new Set(recent.map((r) => r.contactId))];
    const names = await this.names.of(recentIds);
    const shown = (id: string) => ({ id, href: contactHref(id), label: contactLabel(names.get(id), id) });
    const view = {
      id: typed,
      searched: typed !== '',
      found: found.map((c) => ({
        id: c.id,
        href: contactHref(c.id),
        label: contactLabel(c, c.id),
        email: c.email ?? '',
      })),
      recent: recentIds.map(shown),
    };
    this.pages.send(req, res, 'contact-search', view, { title: 'Contacts', section: 'contacts' });
  }

  @Get('contacts/:id')
  async timeline(@Req() req: Request, @Res() res: Response, @Param('id') contactId: string) {
    const [deliveries, runs, journal] = await Promise.all([
      this.inbox.views.ofContact(contactId, TIMELINE_LIMIT),
      this.runs.views.ofContact(contactId, TIMELINE_LIMIT),
      this.journal.forContact(contactId, TIMELINE_LIMIT),
    ]);
    const actions = runs.length ? await this.actionResults.views.ofRuns(runs.map((r) => r.id)) : [];
    const steps = buildTimeline({ deliveries, runs, actions, journal });
    // Counted from the ledger like the messaging policy's caps (src/pipeline/execution/timing/policy-gate.service.ts).
    const periods = messagePeriods(this.rules.current()?.policy);
    const now = new Date();
    const longest = new Date(now.getTime() - Math.max(...periods.map((p) => p.perMs)));
    const [sent, name] = await Promise.all([
      this.actionResults.views.messagesWithCategorySentTo(contactId, CUSTOMER_MESSAGE_TYPES, longest, 1000),
      this.names.one(contactId),
    ]);
    const longestPeriod = periods.reduce((a, b) => (b.perMs > a.perMs ? b : a));
    const byCategory = describeCategoryCounts(sent, this.rules.current()?.policy, longestPeriod, now);
    const view = {
      contactId,
      name: name?.name,
      phone: name ? `+${name.phone}` : undefined,
      email: name?.email ?? undefined,
      messages: [
        describeMessageCounts(
          messageCounts(
            sent.map((m) => m.at),
            now,
            periods,
          ),
        ),
        ...(byCategory ? [byCategory] : []),
      ].join('; '),
      summary: `${deliveries.length} deliveries, ${runs.length} rule evaluations, ${actions.length} actions, ${journal.length} other steps (newest ${TIMELINE_LIMIT} of each kind)`,
      steps: steps.map((s) => ({ ...s, at: when(s.at) })),
    };
    const title = name ? `${name.name} (contact)` : `Contact ${contactId}`;
    this.pages.send(req, res, 'timeline', view, { title, section: 'contacts' });
  }
}
