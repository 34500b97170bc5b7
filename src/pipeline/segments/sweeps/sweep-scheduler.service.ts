import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';
import type { RuleDefinition, ScheduleTrigger } from '../../../language/rules/format/rule-types';
import { RuleSetService } from '../../../runtime/rule-set/rule-set.service';
import { latestTickBetween } from './cron-ticks';
import { SegmentRuleStateRepository } from '../segment-rule-state.repository';
import { SweepQueueService } from './sweep-queue.service';

const JOB_PREFIX = 'segment-sweep:';

/** docs/RULES.md: a schedule without `timezone` is read in UTC, whatever the server's zone. */
const zoneOf = (t: ScheduleTrigger) => t.timezone ?? 'UTC';

interface Registered {
  cron: string;
  timezone?: string;
  job: CronJob;
}

/**
 * Cron jobs of the segment rules. A tick only enqueues a sweep whose job id is rule + tick, so
 * every replica's cron fires and one sweep runs. The last tick of each rule is kept in Postgres:
 * on start, a rule whose latest tick fell while the engine was down gets one sweep for it.
 */
@Injectable()
export class SweepSchedulerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SweepSchedulerService.name);
  private readonly registered = new Map<string, Registered>();
  private unsubscribe?: () => void;

  constructor(
    private readonly ruleState: SegmentRuleStateRepository,
    private readonly rules: RuleSetService,
    private readonly registry: SchedulerRegistry,
    private readonly queue: SweepQueueService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.unsubscribe = this.rules.onChange(
      () => void this.sync().catch((err) => this.logger.error(`schedule reload failed: ${err.message}`)),
    );
    await this.sync();
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    for (const [ruleId, r] of this.registered) {
      void r.job.stop();
      this.deleteJob(ruleId);
    }
    this.registered.clear();
  }

  /** Registers the cron of every enabled segment rule, drops the others, then catches up missed ticks. */
  async sync(now = new Date()): Promise<void> {
    const scheduled = this.rules.current()?.scheduledRules() ?? [];
    const wanted = new Map(scheduled.map((r) => [r.id, r]));
    for (const [ruleId, r] of this.registered) {
      const rule = wanted.get(ruleId);
      const trigger = rule?.trigger as ScheduleTrigger | undefined;
      if (trigger && trigger.cron === r.cron && trigger.timezone === r.timezone) continue;
      void r.job.stop();
      this.deleteJob(ruleId);
      this.registered.delete(ruleId);
    }
    for (const rule of scheduled) {
      await this.recordSchedule(rule);
      if (!this.registered.has(rule.id)) this.register(rule);
      await this.catchUp(rule, now);
    }
  }

  private register(rule: RuleDefinition): void {
    const trigger = rule.trigger as ScheduleTrigger;
    try {
      let expected: Date | undefined;
      const job = CronJob.from({
        cronTime: trigger.cron,
        timeZone: zoneOf(trigger),
        start: false,
        onTick: async () => {
          // The scheduled instant, not the firing time: replicas firing a few ms apart agree on it.
          const tick =
            expected && expected.getTime() <= Date.now() + 1000
              ? expected
              : new Date(Math.floor(Date.now() / 1000) * 1000);
          expected = job.nextDate().toJSDate();
          await this.queue
            .enqueue(rule.id, tick, 'cron')
            .catch((err) => this.logger.error(`sweep ${rule.id}: enqueue failed: ${err.message}`));
        },
      });
      expected = job.nextDate().toJSDate();
      this.registry.addCronJob(
        JOB_PREFIX + rule.id,
        job as unknown as Parameters<SchedulerRegistry['addCronJob']>[1],
      );
      job.start();
      this.registered.set(rule.id, { cron: trigger.cron, timezone: trigger.timezone, job });
      this.logger.log(
        `rule ${rule.id}: sweeps on "${trigger.cron}" (${zoneOf(trigger)}), next at ${expected.toISOString()}`,
      );
    } catch (err) {
      this.logger.error(`rule ${rule.id}: cannot schedule "${trigger.cron}": ${(err as Error).message}`);
    }
  }

  private deleteJob(ruleId: string): void {
    if (this.registry.doesExist('cron', JOB_PREFIX + ruleId))
      this.registry.deleteCronJob(JOB_PREFIX + ruleId);
  }

  /** A changed schedule counts from now: ticks of the old cron are not "missed" by the new one. */
  private async recordSchedule(rule: RuleDefinition): Promise<void> {
    const t = rule.trigger as ScheduleTrigger;
    await this.ruleState.recordSchedule(rule.id, t.cron, t.timezone ?? null);
  }

  private async catchUp(rule: RuleDefinition, now: Date): Promise<void> {
    const t = rule.trigger as ScheduleTrigger;
    const since = await this.ruleState.ticksSince(rule.id);
    if (!since) return;
    const missed = latestTickBetween(t.cron, zoneOf(t), since, now);
    if (!missed) return;
    this.logger.log(
      `rule ${rule.id}: tick ${missed.toISOString()} was missed while the engine was down; sweeping once now`,
    );
    await this.queue.enqueue(rule.id, missed, 'missed');
  }
}
