// Which contacts a bulk run would run for: the rule evaluated, by the same code as every run
// (CompiledRuleSet.evaluateRule), on the contact mirror's copy of each contact, with no event (the
// rule was checked to need none: contactOnlyBlocker). Reads only; the CRM is not called.
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Contact } from '@crm-rules/crm-contract';
import { APP_CONFIG, type AppConfig } from '../../runtime/config/app-config';
import { ENGINE_CLOCK, type EngineClock } from '../../runtime/config/engine-clock';
import type { CompiledRuleSet } from '../../language/matching/compiled-rule-set';
import { toContact } from '../../language/crm-terms/mirrored-contact';
import type { RuleDefinition, RuleEvaluation } from '../../language/rules/format/rule-types';
import type { BulkRunPreview } from '../../persistence/ledger/bulk-runs.repository';
import { ContactMirrorRepository } from '../contact-mirror/contact-mirror.repository';
import { fromMirrorRow } from '../contact-mirror/mirror-records';
import type { MirrorRow } from '../contact-mirror/contact-mirror.repository';
import { bulkRunForecast } from './bulk-run-forecast';

/** At most this many contacts in one bulk run: its list is one row, and 10,000 runs is ~33 min of budget. */
export const BULK_RUN_MAX_CONTACTS = 10_000;
const PAGE = 1000;
/** The event a bulk run's evaluation carries: none, named (facts need one). */
export const BULK_EVENT_TYPE = 'bulk';

@Injectable()
export class BulkRunPreviewService {
  private readonly mirror: ContactMirrorRepository;

  constructor(
    db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ENGINE_CLOCK) private readonly clock: EngineClock,
  ) {
    this.mirror = new ContactMirrorRepository(db);
  }

  /** The rule on one mirrored contact, as its run will record it. */
  async evaluate(set: CompiledRuleSet, rule: RuleDefinition, contact: Contact): Promise<RuleEvaluation> {
    return set.evaluateRule(rule.id, {
      event: { type: BULK_EVENT_TYPE, data: {} },
      contact: contact as unknown as Record<string, unknown>,
      now: this.clock.now(),
    });
  }

  /** Every mirrored contact (a backfill), page by page. */
  async ofMirror(set: CompiledRuleSet, rule: RuleDefinition): Promise<BulkRunPreview> {
    const matched: string[] = [];
    let evaluated = 0;
    let more = 0;
    for (let after = ''; ;) {
      const page = await this.mirror.pageAfter(after, PAGE);
      if (page.length === 0) break;
      evaluated += page.length;
      for (const id of await this.matching(set, rule, page))
        if (matched.length < BULK_RUN_MAX_CONTACTS) matched.push(id);
        else more++;
      after = page[page.length - 1].id;
    }
    const detail = more
      ? `${matched.length + more} contacts match; this bulk run takes the first ${BULK_RUN_MAX_CONTACTS} by id`
      : null;
    return { contactIds: matched, evaluated, forecast: this.forecast(matched.length, rule), detail };
  }

  /** An operator's list of contacts, as the mirror has them. */
  async ofList(set: CompiledRuleSet, rule: RuleDefinition, ids: readonly string[]): Promise<BulkRunPreview> {
    const rows = await this.mirror.rowsOf(ids);
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    const matching = new Set(await this.matching(set, rule, rows));
    // The list's order, each contact once.
    const matched = [...new Set(ids)].filter((id) => matching.has(id));
    const detail = missing.length
      ? `${missing.length} contact(s) not in the contact mirror, left out: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}`
      : null;
    return {
      contactIds: matched,
      evaluated: rows.length,
      forecast: this.forecast(matched.length, rule),
      detail,
    };
  }

  /** The mirrored rows of `ids`, as contacts (for the runs' snapshots). */
  async contacts(ids: readonly string[]): Promise<Map<string, Contact>> {
    const rows = await this.mirror.rowsOf(ids);
    return new Map(rows.map((r) => [r.id, toContact(fromMirrorRow(r))]));
  }

  private async matching(
    set: CompiledRuleSet,
    rule: RuleDefinition,
    rows: readonly MirrorRow[],
  ): Promise<string[]> {
    const out: string[] = [];
    for (const row of rows)
      if ((await this.evaluate(set, rule, toContact(fromMirrorRow(row)))).matched) out.push(row.id);
    return out;
  }

  private forecast(contacts: number, rule: RuleDefinition) {
    return bulkRunForecast(contacts, rule.actions, this.config.crm.budget);
  }
}
