// Every statement on `segment_rule_state`: a scheduled rule's registration, last tick and CRM sync.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class SegmentRuleStateRepository {
  constructor(private readonly db: DataSource) {}

  /** A changed schedule counts from now: ticks of the old cron are not "missed" by the new one. */
  async recordSchedule(ruleId: string, cron: string, timezone: string | null): Promise<void> {
    await this.db.query(
      `INSERT INTO segment_rule_state (rule_id, cron, timezone) VALUES ($1, $2, $3)
       ON CONFLICT (rule_id) DO UPDATE SET cron = EXCLUDED.cron, timezone = EXCLUDED.timezone,
              registered_at = CASE WHEN segment_rule_state.cron IS DISTINCT FROM EXCLUDED.cron
                                     OR segment_rule_state.timezone IS DISTINCT FROM EXCLUDED.timezone
                                   THEN now() ELSE segment_rule_state.registered_at END,
              updated_at = now()`,
      [ruleId, cron, timezone],
    );
  }

  /** Since when ticks count as missed: the last enqueued tick, or the schedule's registration. */
  async ticksSince(ruleId: string): Promise<Date | null> {
    const [state] = await this.db.query(
      `SELECT GREATEST(last_tick_at, registered_at) AS since FROM segment_rule_state WHERE rule_id = $1`,
      [ruleId],
    );
    return state?.since ? new Date(state.since) : null;
  }

  async recordTick(ruleId: string, tick: Date): Promise<void> {
    await this.db.query(
      `UPDATE segment_rule_state SET last_tick_at = GREATEST(last_tick_at, $2), updated_at = now() WHERE rule_id = $1`,
      [ruleId, tick],
    );
  }

  async syncedSegmentName(ruleId: string): Promise<string | null> {
    const [row] = await this.db.query(
      `SELECT synced_segment_name FROM segment_rule_state WHERE rule_id = $1`,
      [ruleId],
    );
    return row?.synced_segment_name ?? null;
  }

  async recordSynced(ruleId: string, cron: string, timezone: string | null, name: string): Promise<void> {
    await this.db.query(
      `INSERT INTO segment_rule_state (rule_id, cron, timezone, synced_segment_name, synced_segment_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (rule_id) DO UPDATE SET synced_segment_name = EXCLUDED.synced_segment_name,
              synced_segment_at = EXCLUDED.synced_segment_at, updated_at = now()`,
      [ruleId, cron, timezone, name],
    );
  }
}
