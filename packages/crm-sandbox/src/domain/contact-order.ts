// The orders GET /v1/contacts returns, kept sorted as contacts change: a page is a slice of an
// order (one pass over it when the query filters) instead of a sort of every contact per request,
// which made a full sync of 100k contacts cost O(N log N) per page. Pure: no Nest.
import type { ContactRecord } from './sandbox-state';

export const CONTACT_SORT_KEYS = ['createdAt', 'name', 'lastInteractionAt'] as const;
export type ContactSortKey = (typeof CONTACT_SORT_KEYS)[number];
export type SortDirection = 'asc' | 'desc';

interface Entry {
  id: string;
  /** The sort value when the entry was placed: the order is consistent with these, not the record. */
  value: string | null;
  record: ContactRecord;
}

// One collator for every comparison: localeCompare(b, 'en', options) builds one per call.
const byName = new Intl.Collator('en', { sensitivity: 'base' });

/** Nulls (never interacted) last in either direction; names by collation; the id breaks ties. */
function entryComparator(key: ContactSortKey, direction: SortDirection): (a: Entry, b: Entry) => number {
  const dir = direction === 'asc' ? 1 : -1;
  return (a, b) => {
    const av = a.value;
    const bv = b.value;
    if (av === null || bv === null) {
      if (av !== bv) return av === null ? 1 : -1;
    } else {
      const cmp = key === 'name' ? byName.compare(av, bv) : av < bv ? -1 : av > bv ? 1 : 0;
      if (cmp !== 0) return cmp * dir;
    }
    return a.id < b.id ? -dir : a.id > b.id ? dir : 0;
  };
}

/** One order of an organization's contacts. */
export interface ContactOrder {
  readonly size: number;
  records(): Iterable<ContactRecord>;
  slice(start: number, end: number): ContactRecord[];
}

class SortedContacts implements ContactOrder {
  private readonly compare: (a: Entry, b: Entry) => number;
  private readonly entries: Entry[];
  private readonly byId = new Map<string, Entry>();

  constructor(
    private readonly key: ContactSortKey,
    direction: SortDirection,
    contacts: Iterable<ContactRecord>,
  ) {
    this.compare = entryComparator(key, direction);
    this.entries = [...contacts].map((record) => this.entryOf(record));
    this.entries.sort(this.compare);
    for (const e of this.entries) this.byId.set(e.id, e);
  }

  get size(): number {
    return this.entries.length;
  }

  records(): Iterable<ContactRecord> {
    return (function* (entries: Entry[]) {
      for (const e of entries) yield e.record;
    })(this.entries);
  }

  slice(start: number, end: number): ContactRecord[] {
    return this.entries.slice(start, end).map((e) => e.record);
  }

  /** Places a new or changed contact; a change that leaves its sort value alone moves nothing. */
  put(record: ContactRecord): void {
    const known = this.byId.get(record.id);
    if (known && known.record === record && known.value === record[this.key]) return;
    if (known) this.entries.splice(this.position(known), 1);
    const entry = this.entryOf(record);
    this.byId.set(record.id, entry);
    this.entries.splice(this.position(entry), 0, entry);
  }

  remove(id: string): void {
    const known = this.byId.get(id);
    if (!known) return;
    this.entries.splice(this.position(known), 1);
    this.byId.delete(id);
  }

  private entryOf(record: ContactRecord): Entry {
    return { id: record.id, value: record[this.key], record };
  }

  /** The index of `entry` if present, else where it belongs (binary search). */
  private position(entry: Entry): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.entries[mid], entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/**
 * An organization's contacts in each requested order. An order is built on its first request and
 * then kept up to date by `put` / `remove`, which every write to a contact calls.
 */
export class ContactOrders {
  private readonly orders = new Map<string, SortedContacts>();

  constructor(private readonly contacts: ReadonlyMap<string, ContactRecord>) {}

  get(key: ContactSortKey, direction: SortDirection): ContactOrder {
    const name = `${key} ${direction}`;
    let order = this.orders.get(name);
    // A size that disagrees means a write bypassed put/remove: rebuild rather than serve a wrong page.
    if (!order || order.size !== this.contacts.size) {
      order = new SortedContacts(key, direction, this.contacts.values());
      this.orders.set(name, order);
    }
    return order;
  }

  put(record: ContactRecord): void {
    for (const order of this.orders.values()) order.put(record);
  }

  remove(id: string): void {
    for (const order of this.orders.values()) order.remove(id);
  }
}
