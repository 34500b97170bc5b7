// The one rule for an at-most-once write (a message to a customer) once its `running` mark is
// committed: only an outcome that proves the CRM did not apply the write may make the action
// `pending`, `failed` or `dead` (and so be tried again); every other outcome is looked up (found →
// succeeded, else uncertain), and a 2xx whose body could not be read is applied. Pure (the core:
// the runner and the operator's retry-dead share it), so the table in
// src/pipeline/execution/write-verdict.spec.ts lists every error class the runner can meet.
import { UnknownNameError } from '../crm-terms/directory-match';
import { CrmApiError, CrmUnreadableAnswerError, InvalidCrmIdError } from '../crm-terms/crm-errors';
import { provablyUnsent } from '../crm-terms/unsent-proof';
import { NoConversationError } from './conversation-for';
import { MissingMessageError } from './message-trigger';

/**
 * - not_applied: proven not applied; the usual failure path (pending / failed / dead).
 * - applied: the CRM accepted it (a 2xx); recorded `succeeded`.
 * - unclear: anything else; looked up, never sent again by the engine.
 */
export type WriteVerdict = 'not_applied' | 'applied' | 'unclear';

/**
 * 4xx statuses the CRM documents as a refusal of the request (docs/CRM-API.md §7, 404 for unknown
 * ids, 422 the sandbox's validation answer): nothing was applied. Any other 4xx (408, 499 from a
 * proxy, ...) proves nothing.
 */
export const DOCUMENTED_REFUSALS: ReadonlySet<number> = new Set([400, 401, 403, 404, 409, 422]);

/** Codes (action_results.error_code) of failures raised before anything was sent. */
const UNSENT_CODES: ReadonlySet<string> = new Set([
  'budget_timeout',
  'connection_refused',
  'invalid_id',
  'no_message',
  'no_conversation',
  'unknown_name',
]);

/** What an error raised after the `running` mark says about the write. */
export function verdictAfterRunning(err: unknown): WriteVerdict {
  if (err instanceof CrmUnreadableAnswerError) return 'applied';
  if (err instanceof InvalidCrmIdError) return 'not_applied';
  if (err instanceof CrmApiError)
    return err.status === 429 || DOCUMENTED_REFUSALS.has(err.status) ? 'not_applied' : 'unclear';
  if (provablyUnsent(err)) return 'not_applied';
  // The engine's own refusals, raised before the write's request is built.
  if (
    err instanceof MissingMessageError ||
    err instanceof NoConversationError ||
    err instanceof UnknownNameError
  )
    return 'not_applied';
  return 'unclear';
}

/** An action row as retry-dead sees it. */
export interface RecordedFailure {
  atMostOnce: boolean;
  /** Set by the `running` mark: the write may have been sent once. */
  startedAt: Date | null;
  errorCode: string | null;
  httpStatus: number | null;
}

/**
 * Why retry-dead must not run this action again, or undefined when it may: an at-most-once write
 * that was once marked `running` and whose recorded failure does not prove it was not applied
 * (rows recorded before this rule, or by hand). An operator resolves those instead.
 */
export function retryRefusal(row: RecordedFailure): string | undefined {
  if (!row.atMostOnce || row.startedAt === null) return undefined;
  if (row.httpStatus !== null && (row.httpStatus === 429 || DOCUMENTED_REFUSALS.has(row.httpStatus)))
    return undefined;
  if (row.errorCode !== null && UNSENT_CODES.has(row.errorCode)) return undefined;
  return `write_maybe_applied (${row.errorCode ?? 'no error recorded'})`;
}
