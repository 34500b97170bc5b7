// Read-only lists: members (docs/CRM-API.md §4.7), channels, broadcasts (4.8), message templates.
import type { Broadcast, Channel, Member, PageWithTotals } from '@crm-rules/crm-contract';
import { SORT_ORDERS } from './contact-queries';
import { pageWithTotals } from './paging';
import { pageRequest, pagingSpec, type ParsedQuery } from './query-checks';
import type { OpContext, TemplateRecord } from './sandbox-state';
import { broadcastView, memberView, templateView } from './views';

export const USER_LIST_QUERY = {
  ...pagingSpec(100),
  search: { kind: 'string', max: 200 },
  sortBy: { kind: 'enum', values: ['name', 'email', 'createdAt'] },
  sortOrder: { kind: 'enum', values: SORT_ORDERS },
} as const;
export const CHANNEL_LIST_QUERY = { platformType: { kind: 'string', max: 100 } } as const;
export const BROADCAST_LIST_QUERY = pagingSpec(100);
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED'] as const;
export const TEMPLATE_LIST_QUERY = {
  ...pagingSpec(100),
  search: { kind: 'string', max: 200 },
  status: { kind: 'enum', values: TEMPLATE_STATUSES },
} as const;

export function listUsers(ctx: OpContext, q: ParsedQuery<typeof USER_LIST_QUERY>): PageWithTotals<Member> {
  const key = q.sortBy ?? 'name';
  const dir = (q.sortOrder ?? 'asc') === 'asc' ? 1 : -1;
  const needle = q.search?.toLowerCase() ?? '';
  const rows = [...ctx.org.members.values()]
    .filter((m) => m.name.toLowerCase().includes(needle) || m.email.toLowerCase().includes(needle))
    .sort(
      (a, b) =>
        dir *
          (key === 'createdAt'
            ? a.createdAt.localeCompare(b.createdAt)
            : a[key].localeCompare(b[key], 'en', { sensitivity: 'base' })) || a.id.localeCompare(b.id),
    );
  const page = pageWithTotals(rows, pageRequest(q));
  return { ...page, data: page.data.map(memberView) };
}

export function listChannels(ctx: OpContext, q: ParsedQuery<typeof CHANNEL_LIST_QUERY>): { data: Channel[] } {
  return {
    data: [...ctx.org.channels.values()]
      .filter((c) => !q.platformType || c.platformType === q.platformType)
      .map((c) => ({ ...c })),
  };
}

/** Most recent first: by sentAt, or by creation for broadcasts never sent. */
export function listBroadcasts(
  ctx: OpContext,
  q: ParsedQuery<typeof BROADCAST_LIST_QUERY>,
): PageWithTotals<Broadcast> {
  const at = (b: { sentAt: string | null; createdAt: string }) => b.sentAt ?? b.createdAt;
  const rows = [...ctx.org.broadcasts.values()].sort((a, b) => at(b).localeCompare(at(a)));
  const page = pageWithTotals(rows, pageRequest(q));
  return { ...page, data: page.data.map(broadcastView) };
}

/** Status APPROVED unless another is asked for (docs/CRM-API.md A17). */
export function listTemplates(
  ctx: OpContext,
  q: ParsedQuery<typeof TEMPLATE_LIST_QUERY>,
): PageWithTotals<TemplateRecord> {
  const status = q.status ?? 'APPROVED';
  const needle = q.search?.toLowerCase() ?? '';
  const rows = [...ctx.org.templates.values()]
    .filter(
      (t) =>
        t.status === status &&
        (t.name.toLowerCase().includes(needle) || t.body.toLowerCase().includes(needle)),
    )
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(templateView);
  return pageWithTotals(rows, pageRequest(q));
}
