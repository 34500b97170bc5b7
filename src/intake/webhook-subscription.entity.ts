import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A CRM webhook subscription the engine created. The secret is shown once by the CRM, so it lives here. */
@Entity('webhook_subscriptions')
export class WebhookSubscriptionEntity {
  /** The CRM's subscription id. */
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'crm_base_url', type: 'text' })
  crmBaseUrl!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', array: true })
  events!: string[];

  @Column({ type: 'text' })
  secret!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
