// The envelopes of docs/CRM-API.md §2.10. Page numbers start at 1 (the lower bound is a
// decision, see docs/SANDBOX.md); a page past the end is empty, not an error.
import type { ConversationPage, MediaPage, PageWithTotals } from '@crm-rules/crm-contract';

export interface PageRequest {
  page: number;
  limit: number;
}

function slice<T>(items: readonly T[], { page, limit }: PageRequest): T[] {
  return items.slice((page - 1) * limit, page * limit);
}

export function pageWithTotals<T>(items: readonly T[], req: PageRequest): PageWithTotals<T> {
  return totalledPage(slice(items, req), items.length, req);
}

/** The envelope of one page already cut out of `total` items. */
export function totalledPage<T>(data: T[], total: number, req: PageRequest): PageWithTotals<T> {
  const totalPages = Math.ceil(total / req.limit);
  return {
    data,
    page: req.page,
    limit: req.limit,
    total,
    totalPages,
    hasNext: req.page < totalPages,
    hasPrev: req.page > 1,
  };
}

export function mediaPage<T>(items: readonly T[], req: PageRequest): MediaPage<T> {
  return {
    data: slice(items, req),
    page: req.page,
    limit: req.limit,
    total: items.length,
    hasNext: req.page * req.limit < items.length,
  };
}

/** Conversations: no total is reported, only whether a next page exists. */
export function conversationPage<T>(items: readonly T[], req: PageRequest): ConversationPage<T> {
  return {
    data: slice(items, req),
    page: req.page,
    limit: req.limit,
    hasNext: req.page * req.limit < items.length,
  };
}
