import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * A CRM webhook subscription the engine created. The secret is shown once by the CRM, so it lives
 * here, sealed with WEBHOOK_SECRET_KEY (src/runtime/config/secret-box.ts).
 */
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

  /** The sealed secret (`<iv>.<tag>.<ciphertext>`); plain text only while `secretKeyId` is NULL. */
  @Column({ type: 'text' })
  secret!: string;

  /** The key that sealed `secret`; NULL: a plain-text secret from before encryption, sealed at start. */
  @Column({ name: 'secret_key_id', type: 'text', nullable: true })
  secretKeyId!: string | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
