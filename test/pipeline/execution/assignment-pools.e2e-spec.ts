import { DEMO } from '../../support/demo-fixture';
import { admin, crm, eventually, Harness, newContact, startHarness } from '../../support/engine-harness';

// Assignment pools against the sandbox (real Postgres, Redis, webhooks): the demo's three agents
// Ben, Cara and Dan, of whom Dan is inactive; least-open reads each member's open count from the CRM.

const RULES = `
rule: pool-of-agents
on: contact.created
if: { fact: contact.name, operator: startsWith, value: 'Pool' }
do:
  - assign: { pool: [{ role: agent }], strategy: round-robin }
---
rule: least-open-pair
on: contact.created
if: { fact: contact.name, operator: startsWith, value: 'Least' }
do:
  - assign: { pool: [Ben Sales, Cara Support], strategy: least-open }
---
rule: twin-a
on: contact.created
if: { fact: contact.name, operator: startsWith, value: 'TwinA' }
do:
  - assign: { pool: [Ben Sales, Cara Support] }
---
rule: twin-b
on: contact.created
if: { fact: contact.name, operator: startsWith, value: 'TwinB' }
do:
  - assign: { pool: [Ben Sales, Cara Support] }
`;

const { ben, cara } = DEMO.members;

async function assigneeOf(h: Harness, id: string): Promise<string | null> {
  return (await crm(h, 'GET', `/v1/contacts/${id}`)).body.assigneeId as string | null;
}

async function openCount(h: Harness, memberId: string): Promise<number> {
  return (await crm(h, 'GET', `/v1/contacts?assigneeIds=${memberId}&status=active&limit=1`)).body
    .total as number;
}

describe('assignment pools (e2e)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rules: { 'pools.yaml': RULES } });
  }, 60_000);
  afterAll(() => h?.stop());

  it('assigns only the active members of a pool of three with one inactive', async () => {
    const contacts = await Promise.all([1, 2, 3, 4].map((i) => newContact(h, `Pool ${i}`)));
    const assignees = await eventually(async () => {
      const ids = await Promise.all(contacts.map((c) => assigneeOf(h, c.id as string)));
      if (ids.some((id) => !id)) throw new Error(`not all assigned yet: ${ids.join(', ')}`);
      return ids;
    });
    expect(new Set(assignees)).toEqual(new Set([ben, cara]));
  });

  it('least-open picks the member with fewer open conversations, and says why in the run', async () => {
    // Cara gets three more open contacts than Ben has.
    const extra = (await openCount(h, ben)) - (await openCount(h, cara)) + 3;
    for (let i = 0; i < extra; i++) await newContact(h, `Busy ${i}`, { assigneeId: cara });
    expect(await openCount(h, cara)).toBe((await openCount(h, ben)) + 3);
    const contact = await newContact(h, 'Least 1');
    expect(await eventually(() => assigneeOf(h, contact.id as string))).toBe(ben);
    const runs = await admin(h, 'GET', `/admin/runs?contact=${contact.id}&rule=least-open-pair`);
    const run = await admin(h, 'GET', `/admin/runs/${runs.body.data[0].id}`);
    expect(JSON.stringify(run.body)).toContain('least-open: Ben Sales has');
  });

  // Two rules writing the same pool: each keeps its own turn (its counter is named by rule id and
  // action index, not by the pool's label). A shared counter, taken in turns A, B, A, B, would give
  // every A contact one member and every B contact the other.
  it('two rules with the same pool each rotate over both members', async () => {
    const seen: Record<'A' | 'B', string[]> = { A: [], B: [] };
    for (const [i, twin] of (['A', 'B', 'A', 'B'] as const).entries()) {
      const contact = await newContact(h, `Twin${twin} ${i}`);
      seen[twin].push(await eventually(async () => (await assigneeOf(h, contact.id as string)) ?? undefined));
    }
    expect(new Set(seen.A)).toEqual(new Set([ben, cara]));
    expect(new Set(seen.B)).toEqual(new Set([ben, cara]));
  });
});
