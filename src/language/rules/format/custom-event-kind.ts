// The event-kind family of custom sources (sources.yaml): `custom.<name>`. The CRM's own kinds are
// EVENT_KINDS (packages/crm-contract/src/crm-types.ts); this is the one place the other family is named.
export const CUSTOM_EVENT_PREFIX = 'custom.';

export const isCustomEventKind = (kind: string): boolean => kind.startsWith(CUSTOM_EVENT_PREFIX);

/** `custom.shop` -> `shop`. */
export const customSourceOf = (kind: string): string => kind.slice(CUSTOM_EVENT_PREFIX.length);
