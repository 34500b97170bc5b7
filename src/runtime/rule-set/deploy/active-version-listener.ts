// The rule-controls pattern (src/runtime/rule-controls/rule-controls.service.ts) for deployed versions: a
// dedicated connection LISTENs on `rule_set_versions`; every activation NOTIFYs at commit. If the
// connection drops, notifications sent meanwhile are lost, so each reconnect calls `onChange` too
// (the caller re-reads the active row before trusting the channel again).
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { listenForActivations } from './rule-set-versions.repository';

const RECONNECT_MAX_MS = 5_000;

export class ActiveVersionListener {
  private readonly logger = new Logger(ActiveVersionListener.name);
  private client?: Client;
  private reconnectTimer?: NodeJS.Timeout;
  private reconnectDelayMs = 250;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onChange: (cause: 'notification' | 'reconnect') => void,
  ) {}

  async start(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', () => this.onChange('notification'));
    client.on('error', (err) => this.warn('listener', err));
    // Only the current connection's end matters: an older one's late event must not fork a second.
    client.on('end', () => client === this.client && this.scheduleReconnect());
    this.client = client;
    await client.connect();
    await listenForActivations(client);
    this.reconnectDelayMs = 250;
  }

  async stop(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    await this.client?.end().catch(() => undefined);
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => void this.reconnect(), this.reconnectDelayMs);
  }

  private async reconnect(): Promise<void> {
    try {
      await this.start();
      this.onChange('reconnect');
    } catch (err) {
      this.warn('reconnect', err);
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, RECONNECT_MAX_MS);
      this.scheduleReconnect();
    }
  }

  private warn(what: string, err: unknown): void {
    this.logger.warn(`rule set versions ${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
