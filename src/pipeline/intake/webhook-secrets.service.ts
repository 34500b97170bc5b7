import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../runtime/config/app-config';
import { INTAKE_DB } from './intake-db';
import {
  openSecret,
  sealSecret,
  SecretUnreadableError,
  type SecretKey,
} from '../../runtime/config/secret-box';
import type { WebhookSubscriptionEntity } from '../../persistence/schema/webhook-subscription.entity';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';

const REFRESH_MS = 15_000;

/**
 * The secrets a delivery may be signed with: CRM_WEBHOOK_SECRET and the secrets of the engine's
 * active subscriptions at the current CRM base URL (during a replacement both old and new are
 * valid). Subscriptions made with another CRM (an earlier CRM_BASE_URL, an earlier embedded
 * sandbox) are retired at start: a secret of a CRM we no longer talk to must not open the intake.
 * Stored sealed (AES-256-GCM, WEBHOOK_SECRET_KEY): at start, rows of an old key are sealed again
 * with the current key; a plain-text row (NULL key id) is refused and deactivated. Opened only when the
 * cache is refreshed (every 15 s), never per delivery. Read over the intake's own pool.
 */
@Injectable()
export class WebhookSecretsService implements OnModuleInit {
  private readonly logger = new Logger(WebhookSecretsService.name);
  private cache: { secrets: string[]; at: number } | undefined;
  private readonly subscriptions: WebhookSubscriptionsRepository;
  private readonly current: SecretKey;
  private readonly keys: SecretKey[];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INTAKE_DB) db: DataSource,
  ) {
    this.subscriptions = new WebhookSubscriptionsRepository(db);
    this.current = config.webhookSecretKeys.current;
    this.keys = [this.current, ...config.webhookSecretKeys.old];
  }

  async onModuleInit(): Promise<void> {
    const retired = await this.subscriptions.retireOtherCrms(this.crmBaseUrl());
    if (retired) this.logger.log(`retired ${retired} webhook secret(s) of another CRM base URL`);
    await this.sealStoredSecrets();
  }

  /**
   * Seals with the current key every stored secret sealed with an old key (a plain-text one is unreadable).
   * Each row is written only if nobody changed it meanwhile (several processes start at once). A
   * secret no key opens is deactivated: the subscription is then replaced, not trusted blindly.
   */
  async sealStoredSecrets(): Promise<{ sealed: number; unreadable: number }> {
    const rows = await this.subscriptions.notSealedWith(this.current.id);
    let sealed = 0;
    let unreadable = 0;
    for (const row of rows) {
      let plain: string;
      try {
        plain = this.plainOf(row);
      } catch (err) {
        unreadable++;
        if (row.active) await this.subscriptions.updateIfUnchanged(row, { active: false });
        this.logger.error(
          `webhook subscription ${row.id}: secret unreadable (${(err as Error).message}); deactivated`,
        );
        continue;
      }
      const next = this.sealFor(row.id, plain);
      if (await this.subscriptions.updateIfUnchanged(row, next)) sealed++;
    }
    if (sealed) this.logger.log(`sealed ${sealed} webhook secret(s) with key ${this.current.id}`);
    if (sealed || unreadable) this.invalidate();
    return { sealed, unreadable };
  }

  /** The columns to store for a new subscription's secret. */
  sealFor(subscriptionId: string, plain: string): { secret: string; secretKeyId: string } {
    const sealed = sealSecret(plain, this.current, subscriptionId);
    return { secret: sealed.ciphertext, secretKeyId: sealed.keyId };
  }

  private crmBaseUrl(): string {
    return this.config.crm.baseUrl ?? '';
  }

  /**
   * A row's secret. A NULL `secretKeyId` (plain text from before encryption) is refused, never
   * trusted: migration 1766020000001 sealed every such row, so one now was written by hand.
   */
  private plainOf(row: WebhookSubscriptionEntity): string {
    if (row.secretKeyId === null) throw new SecretUnreadableError('not_sealed');
    return openSecret({ ciphertext: row.secret, keyId: row.secretKeyId }, this.keys, row.id);
  }

  async secrets(): Promise<string[]> {
    if (this.cache && Date.now() - this.cache.at < REFRESH_MS) return this.cache.secrets;
    const rows = await this.subscriptions.active(this.crmBaseUrl());
    const secrets = this.config.crm.webhookSecret ? [this.config.crm.webhookSecret] : [];
    for (const row of rows) {
      try {
        secrets.push(this.plainOf(row));
      } catch (err) {
        if (!(err instanceof SecretUnreadableError)) throw err;
        this.logger.warn(
          `webhook subscription ${row.id}: secret unreadable (${err.message}); its deliveries are refused`,
        );
      }
    }
    this.cache = { secrets, at: Date.now() };
    return secrets;
  }

  invalidate(): void {
    this.cache = undefined;
  }
}
