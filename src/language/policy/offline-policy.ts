// The messaging policy for offline replays (crm-rules forecast and diff), as the engine applies it:
// each customer message is submitted at the time its run reaches it and judged by judgeMessage
// (the engine's decision) in time order per contact. A deferred message is judged again at its
// release, with the messages that went before it counted, exactly as the engine's gate judges a
// run woken at the end of quiet hours: three messages deferred to 08:00 under a cap of one a day
// are one sent and two `policy_cap`, not three "deferred". The replay submits everything, then
// `settle()` decides; tickets hold the outcomes. `prior`: messages sent before the replay (ledger
// or a recorded file). Pure, in memory.
import { judgeMessage, type MessageToJudge, type SentMessage } from './judge-message';
import { policyApplies, type MessagingPolicy } from './messaging-policy';
import { isCustomerMessage } from './customer-messages';

/** What finally became of one submitted message (after settle()). */
export type PolicyOutcome =
  | { kind: 'sent'; at: Date; /** The first reason it was held, when it went later. */ deferred?: string }
  | { kind: 'skipped'; reason: string; detail: string };

export interface PolicyTicket {
  outcome?: PolicyOutcome;
}

/** A message as the replay reaches it: judged at `at`, or at its release when deferred. */
export type SubmittedMessage = Omit<MessageToJudge, 'now' | 'sent'> & { at: Date };

interface Pending {
  ticket: PolicyTicket;
  message: Omit<MessageToJudge, 'now' | 'sent'>;
  due: number;
  seq: number;
  deferred?: string;
  /** How many times it was deferred (a guard against a policy that never releases it). */
  deferrals: number;
}

/** A message deferred this many times is given up (skipped): a policy that never releases it. */
const MAX_DEFERRALS = 1000;

export class OfflinePolicy {
  private readonly pending = new Map<string, Pending[]>();
  private readonly sent = new Map<string, SentMessage[]>();
  private seq = 0;

  constructor(
    private readonly policy: MessagingPolicy | undefined,
    /** Per contact id: when its customer messages before the replay went (any order). */
    private readonly prior: ReadonlyMap<string, readonly Date[]> = new Map(),
  ) {}

  /**
   * Puts one message to the policy; undefined when the policy has no say (no policy, not a
   * customer message): the action is done as the run reaches it.
   */
  submit(contactId: string, submitted: SubmittedMessage): PolicyTicket | undefined {
    if (!policyApplies(this.policy) || !isCustomerMessage(submitted.type)) return undefined;
    const ticket: PolicyTicket = {};
    const list = this.pending.get(contactId) ?? [];
    const { at, ...message } = submitted;
    list.push({ ticket, message, due: at.getTime(), seq: this.seq++, deferrals: 0 });
    this.pending.set(contactId, list);
    return ticket;
  }

  /** Judges every submitted message, per contact in time order (ties: in order of submission). */
  settle(): void {
    for (const [contactId, list] of this.pending) {
      // Prior messages: their category is not known, they count as the default category's.
      const sent = this.sent.get(contactId) ?? (this.prior.get(contactId) ?? []).map((at) => ({ at }));
      this.sent.set(contactId, sent);
      while (list.length > 0) {
        list.sort((a, b) => a.due - b.due || a.seq - b.seq);
        const next = list.shift()!;
        const now = new Date(next.due);
        const d = judgeMessage(this.policy, { ...next.message, now, sent });
        if (!d || d.kind === 'go') {
          sent.push({ at: now, ...(next.message.category ? { category: next.message.category } : {}) });
          next.ticket.outcome = {
            kind: 'sent',
            at: now,
            ...(next.deferred ? { deferred: next.deferred } : {}),
          };
        } else if (d.kind === 'skip') {
          next.ticket.outcome = { kind: 'skipped', reason: d.reason, detail: d.detail };
        } else if (next.deferrals >= MAX_DEFERRALS) {
          next.ticket.outcome = { kind: 'skipped', reason: d.reason, detail: `${d.detail}; never released` };
        } else {
          list.push({
            ...next,
            due: Math.max(d.until.getTime(), next.due + 1),
            deferred: next.deferred ?? d.reason,
            deferrals: next.deferrals + 1,
          });
        }
      }
    }
    this.pending.clear();
  }
}
