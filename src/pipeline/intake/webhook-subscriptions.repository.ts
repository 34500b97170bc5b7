// Every statement on `webhook_subscriptions` (TypeORM's repository over its entity, whose one row
// type is WebhookSubscriptionEntity): the subscription service records and retires subscriptions
// over the main pool; the intake's secrets read and re-seal them over the intake's own pool.
import { DataSource, IsNull, Not, type Repository } from 'typeorm';
import { WebhookSubscriptionEntity } from '../../persistence/schema/webhook-subscription.entity';

/** The columns of a new subscription. */
export type NewWebhookSubscription = Omit<WebhookSubscriptionEntity, 'createdAt'>;

export class WebhookSubscriptionsRepository {
  private readonly rows: Repository<WebhookSubscriptionEntity>;

  constructor(db: DataSource) {
    this.rows = db.getRepository(WebhookSubscriptionEntity);
  }

  /** Active subscriptions at a CRM base URL, newest first. */
  active(crmBaseUrl: string): Promise<WebhookSubscriptionEntity[]> {
    return this.rows.find({ where: { active: true, crmBaseUrl }, order: { createdAt: 'DESC' } });
  }

  /** Deactivates the active subscriptions made with another CRM base URL; answers how many. */
  async retireOtherCrms(crmBaseUrl: string): Promise<number> {
    const retired = await this.rows.update({ active: true, crmBaseUrl: Not(crmBaseUrl) }, { active: false });
    return retired.affected ?? 0;
  }

  /** Rows whose secret is plain text (no key id) or sealed with a key other than `currentKeyId`. */
  notSealedWith(currentKeyId: string): Promise<WebhookSubscriptionEntity[]> {
    return this.rows.find({ where: [{ secretKeyId: IsNull() }, { secretKeyId: Not(currentKeyId) }] });
  }

  /**
   * Writes `values` on the row only if its key id is still the one read (several processes start at
   * once): true when written.
   */
  async updateIfUnchanged(
    row: Pick<WebhookSubscriptionEntity, 'id' | 'secretKeyId'>,
    values: Partial<Pick<WebhookSubscriptionEntity, 'secret' | 'secretKeyId' | 'active'>>,
  ): Promise<boolean> {
    const unchanged = { id: row.id, secretKeyId: row.secretKeyId ?? IsNull() };
    return !!(await this.rows.update(unchanged, values)).affected;
  }

  async deactivate(ids: string[]): Promise<void> {
    await this.rows.update(ids, { active: false });
  }

  /** Deactivates one subscription, only at this CRM base URL. */
  async deactivateAt(id: string, crmBaseUrl: string): Promise<void> {
    await this.rows.update({ id, crmBaseUrl }, { active: false });
  }

  async insert(subscription: NewWebhookSubscription): Promise<void> {
    await this.rows.save(this.rows.create(subscription));
  }
}
