// How an action failure is classified and recorded: pure, so the table in action-failure.spec.ts
// pins what ends an action for good and what is tried again.
import {
  CrmApiError,
  CrmTransportError,
  CrmUnreadableAnswerError,
} from '../../language/crm-terms/crm-errors';
import { provablyUnsent } from '../../language/crm-terms/unsent-proof';
import { UnknownNameError } from '../../language/crm-terms/directory-match';
import { NoConversationError } from '../../language/catalogue/conversation-for';
import { MissingMessageError } from '../../language/catalogue/message-trigger';

/** A failure that would come back on every attempt: the action ends `failed`, no retry. */
export function isPermanentFailure(err: unknown): boolean {
  return (
    (err instanceof CrmApiError && !err.retryable) ||
    err instanceof MissingMessageError ||
    err instanceof NoConversationError ||
    isUnknownName(err)
  );
}

function isUnknownName(err: unknown): err is UnknownNameError {
  return err instanceof UnknownNameError;
}

export function describeFailure(err: unknown): {
  code: string;
  message: string;
  status: number | null;
  requestId: string | null;
} {
  if (err instanceof CrmApiError) {
    return { code: err.code, message: err.message, status: err.status, requestId: err.requestId ?? null };
  }
  if (err instanceof MissingMessageError)
    return { code: 'no_message', message: err.message, status: null, requestId: null };
  if (err instanceof NoConversationError)
    return { code: 'no_conversation', message: err.message, status: null, requestId: null };
  if (isUnknownName(err))
    return { code: 'unknown_name', message: err.message, status: null, requestId: null };
  if (err instanceof CrmUnreadableAnswerError)
    return { code: 'unreadable_answer', message: err.message, status: err.status, requestId: null };
  const e = err as { name?: string; message?: string };
  return {
    code: e?.name === 'CrmTransportError' ? transportCode(err) : 'internal_error',
    message: String(e?.message ?? err),
    status: null,
    requestId: null,
  };
}

/** Transport failures that prove nothing was sent keep a code of their own: retry-dead reads it. */
function transportCode(err: unknown): string {
  if (!(err instanceof CrmTransportError) || !provablyUnsent(err)) return 'transport_error';
  return err.kind === 'budget_timeout' ? 'budget_timeout' : 'connection_refused';
}
