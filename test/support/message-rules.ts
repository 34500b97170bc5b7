// The three customer-facing rules the at-most-once suites drive: a message, an approved template and
// a reaction, each started by its own trigger (contact notes "send" / "template", an inbound
// "react please"). One copy for at-most-once.e2e-spec.ts and after-accepted.e2e-spec.ts, with the
// ledger read both wait on: a rule's action rows for a contact once its run has settled.
import type { DataSource } from 'typeorm';
import { eventually } from './engine-harness';
export const SEND_RULE = `
rule: follow-up
on: contact.updated
if: { fact: contact.notes, operator: equal, value: "send" }
do:
  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }
`;

export const TEMPLATE_RULE = `
rule: welcome-back
on: contact.updated
if: { fact: contact.notes, operator: equal, value: "template" }
do:
  - send-template: { name: welcome, parameters: ["{{contact.name}}"], channel: Main WhatsApp }
`;

export const REACT_RULE = `
rule: thumbs-up
on: message.created
if:
  all:
    - { fact: message.isOutgoing, operator: equal, value: false }
    - { fact: message.text, operator: equal, value: "react please" }
do:
  - react: "👍"
`;

/** The action rows of `ruleId`'s run for `contactId`, once the run is neither pending nor running. */
export const actionRowsWhenSettled = (db: DataSource, contactId: string, ruleId: string, timeoutMs: number) =>
  eventually(async () => {
    const rows = await db.query(
      `SELECT a.id, a.status, a.reason, a.error_code, r.status AS run_status FROM action_results a
         JOIN runs r ON r.id = a.run_id WHERE r.contact_id = $1 AND r.rule_id = $2 ORDER BY a.action_index`,
      [contactId, ruleId],
    );
    return rows.length && !['pending', 'running'].includes(rows[0].run_status) ? rows : undefined;
  }, timeoutMs);
