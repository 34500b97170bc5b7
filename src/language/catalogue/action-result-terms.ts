// The words of an action's recorded outcome: the status an attempt ends in and what it aimed at.
// The catalogue's entries produce them (a target before the call, a status after), the ledger's
// action_results row stores them (src/persistence/ledger/action-result.entity.ts imports them from
// here), so the core owns the terms and persistence stays below it.

/** `uncertain`: an at-most-once write (a message) whose outcome could not be established: an operator decides. */
export type ActionStatus = 'pending' | 'running' | 'succeeded' | 'skipped' | 'failed' | 'dead' | 'uncertain';

/** What an attempt aimed at, recorded before the call: where to look the write up, whom a round-robin drew. */
export interface ActionTarget {
  conversationId?: string;
  memberId?: string;
  /** An assignment pool's choice: who was eligible, who not and why, which strategy picked whom. */
  pool?: { why: string; eligible: string[]; excluded: { member: string; why: string }[] };
  /** A text message: its text as rendered for this contact (what the console shows as sent). */
  text?: string;
}
