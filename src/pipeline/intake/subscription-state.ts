// Whether the CRM delivers to this engine, judged from its subscription list and the ones whose
// secret the engine holds. Pure: no Nest, no I/O.
import type { WebhookSubscription } from '@crm-rules/crm-contract';

export type SubscriptionStatus = 'delivering' | 'disabled' | 'missing' | 'not_needed' | 'unknown';

export interface SubscriptionState {
  status: SubscriptionStatus;
  /** False only when events the rules need are not delivered (disabled, missing) or cannot be told. */
  delivering: boolean;
  subscriptionId?: string;
  checkedAt: string;
  message: string;
}

/** The state of delivery to `url` for `kinds`, from the CRM's list and the ids we hold a secret of. */
export function subscriptionState(
  url: string | undefined,
  kinds: string[],
  remote: WebhookSubscription[],
  heldIds: Set<string>,
  now: Date,
): SubscriptionState {
  const checkedAt = now.toISOString();
  if (!url || kinds.length === 0)
    return { status: 'not_needed', delivering: true, checkedAt, message: 'no CRM event kind is needed' };
  const ours = remote.filter((s) => s.url === url && heldIds.has(s.id));
  const covering = ours.filter((s) => kinds.every((k) => s.events.includes(k)));
  const live = covering.find((s) => s.enabled !== false);
  if (live)
    return {
      status: 'delivering',
      delivering: true,
      subscriptionId: live.id,
      checkedAt,
      message: `subscription ${live.id} delivers ${kinds.join(', ')} to ${url}`,
    };
  const disabled = covering.find((s) => s.enabled === false);
  if (disabled)
    return {
      status: 'disabled',
      delivering: false,
      subscriptionId: disabled.id,
      checkedAt,
      message: `the CRM disabled subscription ${disabled.id} (failed deliveries): events are not delivered`,
    };
  return {
    status: 'missing',
    delivering: false,
    checkedAt,
    message: `no subscription delivers ${kinds.join(', ')} to ${url}: events are not delivered`,
  };
}
