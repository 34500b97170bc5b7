// The operators' switches as every process sees them: held in memory (the event path asks per
// run, so it must not cost a query), loaded at start and re-read whenever Postgres delivers a
// NOTIFY on `rule_controls` — a change is live on every process within milliseconds, no polling.
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { RuleDefinition } from '../../language/rules/format/rule-types';
import type { RuleControlChange } from './rule-control-audit.entity';
import { listenForChanges, RuleControl, RuleControlsRepository } from './rule-controls.repository';

const RECONNECT_MAX_MS = 5_000;

@Injectable()
export class RuleControlsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RuleControlsService.name);
  private controls = new Map<string, RuleControl>();
  private readonly listeners = new Set<(controls: ReadonlyMap<string, RuleControl>) => void>();
  private listener?: Client;
  private reconnectTimer?: NodeJS.Timeout;
  private reconnectDelayMs = 250;
  private closed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: RuleControlsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.listen();
    await this.reload('start');
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.listener?.end().catch(() => undefined);
  }

  isPaused(ruleId: string): boolean {
    return this.controls.get(ruleId)?.paused ?? false;
  }

  /** The file's mode, unless an operator forced shadow. */
  modeOf(rule: Pick<RuleDefinition, 'id' | 'mode'>): 'live' | 'shadow' {
    return this.controls.get(rule.id)?.shadow ? 'shadow' : rule.mode;
  }

  all(): ReadonlyMap<string, RuleControl> {
    return this.controls;
  }

  onChange(listener: (controls: ReadonlyMap<string, RuleControl>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async change(ruleId: string, change: RuleControlChange, actor: string, note: string | null): Promise<void> {
    await this.repository.change(ruleId, change, actor, note);
    await this.reload('own change'); // this process need not wait for its own notification
  }

  /** `cause` goes into the log line: how the change reached this process (a NOTIFY, a reconnect). */
  private async reload(cause: 'start' | 'own change' | 'notification' | 'reconnect'): Promise<void> {
    const rows = await this.repository.all();
    const before = describe(this.controls);
    this.controls = new Map(rows.map((r) => [r.ruleId, r]));
    const after = describe(this.controls);
    // Every process says it in its log: an operator can check a pause reached all of them.
    if (after !== before) this.logger.log(`rule controls now: ${after} (${cause})`);
    for (const listener of this.listeners) listener(this.controls);
  }

  /**
   * A dedicated connection (LISTEN holds it). If it drops, notifications sent meanwhile are
   * lost, so every reconnect re-reads the table before trusting the channel again.
   */
  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.config.databaseUrl });
    client.on(
      'notification',
      () => void this.reload('notification').catch((err) => this.warn('reload', err)),
    );
    client.on('error', (err) => this.warn('listener', err));
    // Only the current connection's end matters: an older one's late event must not fork a second.
    client.on('end', () => client === this.listener && this.scheduleReconnect());
    this.listener = client;
    await client.connect();
    await listenForChanges(client);
    this.reconnectDelayMs = 250;
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    // reconnect() catches its own failures (it schedules the next try), so nothing is left to await.
    this.reconnectTimer = setTimeout(() => void this.reconnect(), this.reconnectDelayMs);
  }

  private async reconnect(): Promise<void> {
    try {
      await this.listen();
      await this.reload('reconnect');
    } catch (err) {
      this.warn('reconnect', err);
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
      this.scheduleReconnect();
    }
  }

  private warn(what: string, err: unknown): void {
    this.logger.warn(`rule controls ${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function describe(controls: ReadonlyMap<string, RuleControl>): string {
  const list = (pick: (c: RuleControl) => boolean) =>
    [...controls.values()]
      .filter(pick)
      .map((c) => c.ruleId)
      .sort()
      .join(', ') || 'none';
  return `paused ${list((c) => c.paused)}; forced shadow ${list((c) => c.shadow)}`;
}
