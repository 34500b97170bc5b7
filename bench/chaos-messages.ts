// The chaos suite's customer-facing scenarios: a rule that greets each contact with a message
// (send-message, at-most-once) while the answer of the send is cut short, the connection is cut
// after the request was written, or Postgres refuses the `succeeded` mark. What counts is what
// the customer holds: exactly one greeting per contact, never two (`repeated messages`); an
// outcome the engine could not settle is `uncertain`, for an operator.
import { Client } from 'pg';
import { sleep, until } from './chaos-services';

export const GREET_RULE = `rule: chaos-greet
on: contact.updated
if: { fact: contact.notes, operator: equal, value: greet }
do:
  - send-message: { text: "Hello {{contact.name}}", channel: Main WhatsApp }
`;
/** The greeted contacts: marked, and assigned (the CRM messages assigned contacts only). */
export const GREETED_CONTACT = { notes: 'greet', assigneeId: 'a0000000-0000-4000-8000-000000000001' };
export const MESSAGES_ROUTE = 'POST /v1/messages';
/** How many success marks the database refuses in the refused-mark scenario. */
export const REFUSED_MARKS = 15;

/** A trigger refusing the success mark of send-message rows REFUSED_MARKS times (40001, 55P03 alternately). */
export async function refuseSuccessMarks(databaseUrl: string): Promise<void> {
  await sql(databaseUrl, [
    `DROP SEQUENCE IF EXISTS chaos_refusals`,
    `CREATE SEQUENCE chaos_refusals`,
    `CREATE OR REPLACE FUNCTION chaos_refuse_success() RETURNS trigger AS $$
     DECLARE n bigint;
     BEGIN
       IF NEW.status = 'succeeded' AND OLD.status <> 'succeeded' AND NEW.action ->> 'type' = 'send-message' THEN
         n := nextval('chaos_refusals');
         IF n <= ${REFUSED_MARKS} THEN
           RAISE EXCEPTION 'chaos: success mark refused' USING ERRCODE = CASE WHEN n % 2 = 0 THEN '55P03' ELSE '40001' END;
         END IF;
       END IF;
       RETURN NEW;
     END $$ LANGUAGE plpgsql`,
    `DROP TRIGGER IF EXISTS chaos_refuse_success ON action_results`,
    `CREATE TRIGGER chaos_refuse_success BEFORE UPDATE ON action_results FOR EACH ROW EXECUTE FUNCTION chaos_refuse_success()`,
  ]);
}

/** Waits until every refusal was used (or the deadline), then removes the trigger; the time it ended. */
export async function refusalsUsedUp(databaseUrl: string, deadlineMs: number): Promise<number> {
  await until(
    async () => {
      const [row] = await sql(databaseUrl, [`SELECT last_value, is_called FROM chaos_refusals`]);
      return row.is_called === true && Number(row.last_value) >= REFUSED_MARKS;
    },
    deadlineMs,
    250,
  );
  await sql(databaseUrl, [`DROP TRIGGER IF EXISTS chaos_refuse_success ON action_results`]);
  return Date.now();
}

/** Greeting actions of these contacts by status, once none is pending or running (or the deadline). */
export async function greetOutcomes(
  databaseUrl: string,
  contactIds: string[],
  deadlineMs: number,
): Promise<Record<string, number>> {
  let counts: Record<string, number> = {};
  await until(
    async () => {
      const rows = await sql(databaseUrl, [
        {
          text: `SELECT a.status, count(*)::int AS n FROM runs r JOIN action_results a ON a.run_id = r.id
                  WHERE r.rule_id = 'chaos-greet' AND r.contact_id = ANY($1) GROUP BY a.status`,
          values: [contactIds],
        },
      ]);
      counts = Object.fromEntries(rows.map((r) => [String(r.status), Number(r.n)]));
      return !counts.pending && !counts.running;
    },
    deadlineMs,
    1_000,
  );
  return counts;
}

/** Greetings each customer holds, read from the CRM with the read-only key (its own rate limit). */
export async function greetingsHeld(sandboxUrl: string, contactIds: string[]): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  for (const id of contactIds) {
    let n = 0;
    const conversations = await read(sandboxUrl, `/v1/conversations?contactId=${id}`);
    for (const c of conversations)
      for (const m of await read(sandboxUrl, `/v1/messages?conversationId=${c.id}`))
        if (m.isOutgoing && String(m.text).startsWith('Hello ')) n++;
    held.set(id, n);
  }
  return held;
}

async function read(sandboxUrl: string, path: string): Promise<Record<string, unknown>[]> {
  for (;;) {
    const res = await fetch(sandboxUrl + path, { headers: { authorization: 'Bearer sk_demo_readonly' } });
    if (res.ok) return ((await res.json()) as { data: Record<string, unknown>[] }).data;
    if (res.status !== 429) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

type Statement = string | { text: string; values: unknown[] };

async function sql(databaseUrl: string, statements: Statement[]): Promise<Record<string, unknown>[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let rows: Record<string, unknown>[] = [];
    for (const s of statements) rows = (await client.query(s)).rows;
    return rows;
  } finally {
    await client.end();
  }
}
