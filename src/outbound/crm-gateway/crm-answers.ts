// The request ids of the CRM's successful answers, for whoever asks around a piece of work (the
// action runner records the write's id on its ledger row: the README promises request ids on
// every action). An AsyncLocalStorage rather than a return value: the id is a header of the
// answer, and threading it through every client operation and the gateway's retries would
// change every signature for one optional fact. Outside noteCrmAnswers nothing is kept.
import { AsyncLocalStorage } from 'node:async_hooks';

interface AnswerSink {
  /** The request id of the last 2xx answer within the work (the write, for an action). */
  lastRequestId: string | null;
}

const answers = new AsyncLocalStorage<AnswerSink>();

/** Runs `work`; `sink.lastRequestId` holds the id of its last successful CRM answer. */
export function noteCrmAnswers<T>(sink: AnswerSink, work: () => Promise<T>): Promise<T> {
  return answers.run(sink, work);
}

/** Called by the HTTP client on every 2xx answer. */
export function crmAnswered(requestId: string | null): void {
  const sink = answers.getStore();
  if (sink && requestId) sink.lastRequestId = requestId;
}
