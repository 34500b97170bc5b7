import { CONTACT_SORT_KEYS, ContactOrders, type ContactSortKey, type SortDirection } from './contact-order';
import type { ContactRecord } from './sandbox-state';

// The order as docs/CRM-API.md §4.3's list defines it, written the slow way: sort everything per request.
function referenceOrder(
  contacts: Iterable<ContactRecord>,
  key: ContactSortKey,
  direction: SortDirection,
): string[] {
  const dir = direction === 'asc' ? 1 : -1;
  return [...contacts]
    .sort((a, b) => {
      const av = a[key];
      const bv = b[key];
      if (av === null || bv === null) {
        if (av !== bv) return av === null ? 1 : -1;
      } else {
        const cmp =
          key === 'name'
            ? av.localeCompare(bv, 'en', { sensitivity: 'base' })
            : av < bv
              ? -1
              : av > bv
                ? 1
                : 0;
        if (cmp !== 0) return cmp * dir;
      }
      return a.id < b.id ? -dir : a.id > b.id ? dir : 0;
    })
    .map((c) => c.id);
}

function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a * 1664525 + 1013904223) >>> 0;
    return a / 4294967296;
  };
}

// Few distinct values, so ties (broken by id), equal-by-collation names and nulls all occur.
const NAMES = ['ana', 'Ana', 'Ána', 'bob', 'Chen', 'chen', 'Émile', 'zoe'];
const DATES = ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'];

function contact(rnd: () => number, n: number): ContactRecord {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  return {
    id: `00000000-0000-4000-8000-${String(Math.floor(rnd() * 1e12)).padStart(12, '0')}${n}`.slice(0, 36),
    name: pick(NAMES),
    phone: String(n),
    email: null,
    avatar: null,
    notes: null,
    status: 'active',
    isBlocked: false,
    sourceMethod: 'MANUAL',
    assigneeId: null,
    stageId: null,
    tagIds: [],
    customFields: {},
    createdAt: pick(DATES),
    updatedAt: DATES[0],
    lastInteractionAt: rnd() < 0.3 ? null : pick(DATES),
  };
}

const ORDERS = CONTACT_SORT_KEYS.flatMap((key) =>
  (['asc', 'desc'] as const).map((direction) => [key, direction] as const),
);

describe('ContactOrders', () => {
  it.each(ORDERS)('orders by %s %s exactly as a full sort does', (key, direction) => {
    const rnd = seeded(11);
    const contacts = new Map<string, ContactRecord>();
    for (let i = 0; i < 200; i++) {
      const c = contact(rnd, i);
      contacts.set(c.id, c);
    }
    const orders = new ContactOrders(contacts);
    const ids = () => [...orders.get(key, direction).records()].map((c) => c.id);
    expect(ids()).toEqual(referenceOrder(contacts.values(), key, direction));
  });

  it.each(ORDERS)('stays exact by %s %s through creates, changes and deletes', (key, direction) => {
    const rnd = seeded(29);
    const contacts = new Map<string, ContactRecord>();
    const orders = new ContactOrders(contacts);
    orders.get(key, direction); // built while empty: every later write must keep it right
    for (let step = 0; step < 250; step++) {
      const existing = [...contacts.values()];
      const r = rnd();
      if (existing.length < 5 || r < 0.4) {
        const c = contact(rnd, step);
        contacts.set(c.id, c);
        orders.put(c);
      } else if (r < 0.85) {
        const c = existing[Math.floor(rnd() * existing.length)];
        c.name = NAMES[Math.floor(rnd() * NAMES.length)];
        c.lastInteractionAt = rnd() < 0.2 ? null : DATES[Math.floor(rnd() * DATES.length)];
        orders.put(c);
      } else {
        const c = existing[Math.floor(rnd() * existing.length)];
        contacts.delete(c.id);
        orders.remove(c.id);
      }
      // Checked after every step: a change leaves the size alone, so only put can have kept it right.
      const order = orders.get(key, direction);
      const expected = referenceOrder(contacts.values(), key, direction);
      expect([...order.records()].map((c) => c.id)).toEqual(expected);
      expect(order.slice(3, 6).map((c) => c.id)).toEqual(expected.slice(3, 6));
    }
  });

  it('rebuilds an order that a write bypassing put/remove left short', () => {
    const rnd = seeded(3);
    const contacts = new Map<string, ContactRecord>();
    const orders = new ContactOrders(contacts);
    orders.get('createdAt', 'desc');
    const c = contact(rnd, 1);
    contacts.set(c.id, c);
    expect([...orders.get('createdAt', 'desc').records()].map((x) => x.id)).toEqual([c.id]);
  });
});
