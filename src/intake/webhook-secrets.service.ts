import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { WebhookSubscriptionEntity } from './webhook-subscription.entity';

const REFRESH_MS = 15_000;

/**
 * The secrets a delivery may be signed with: CRM_WEBHOOK_SECRET and the secrets of the engine's
 * active subscriptions (during a replacement both old and new are valid). Cached briefly so the
 * intake does not read Postgres twice per delivery.
 */
@Injectable()
export class WebhookSecretsService {
  private cache: { secrets: string[]; at: number } | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(WebhookSubscriptionEntity)
    private readonly subscriptions: Repository<WebhookSubscriptionEntity>,
  ) {}

  async secrets(): Promise<string[]> {
    if (this.cache && Date.now() - this.cache.at < REFRESH_MS) return this.cache.secrets;
    const rows = await this.subscriptions.find({ where: { active: true }, order: { createdAt: 'DESC' } });
    const secrets = [
      ...(this.config.crm.webhookSecret ? [this.config.crm.webhookSecret] : []),
      ...rows.map((r) => r.secret),
    ];
    this.cache = { secrets, at: Date.now() };
    return secrets;
  }

  invalidate(): void {
    this.cache = undefined;
  }
}
