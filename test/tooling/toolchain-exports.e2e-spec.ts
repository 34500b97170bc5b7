// The engine's exports for the offline toolchain: the mirror as a contacts file and the inbox as
// recorded events, read back by the same parsers `forecast` and `diff` use, and replayed.
import { loadRulesFromFiles } from '../../src/language/rules/format/load-rules';
import { parseContactsFile } from '../../src/tooling/toolchain/contacts-file';
import { parseEventsFile } from '../../src/tooling/toolchain/recorded-events';
import { diffRuleSets } from '../../src/tooling/toolchain/rule-diff';
import { ADMIN_TOKEN, eventually, Harness, newContact, startHarness } from '../support/engine-harness';
import { api } from '../support/http';
import { VIP_ON_UPDATE_RULE } from '../support/vip-rule';
import { contactEvent, deliver, TEST_WEBHOOK_SECRET } from '../support/webhooks';

const RULE = VIP_ON_UPDATE_RULE;

async function exported(h: Harness, path: string): Promise<{ status: number; type: string; text: string }> {
  const res = await fetch(`${h.url}${path}`, { headers: { 'x-admin-token': ADMIN_TOKEN } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

describe('admin exports for crm-rules forecast and diff', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      rules: { 'vip.yaml': RULE },
      subscribe: false,
      env: { CRM_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, RULES_WATCH: 'false' },
    });
  });
  afterAll(async () => h?.stop());

  it('needs the admin token', async () => {
    expect((await api(h.url, 'GET', '/admin/events/export')).status).toBe(401);
    expect((await api(h.url, 'GET', '/admin/mirror/export')).status).toBe(401);
  });

  it('exports the inbox and the mirror, and a diff of the export sees the rule act', async () => {
    const contact = await newContact(h, 'Exa Export');
    const event = contactEvent('contact.updated', contact);
    expect((await deliver(h.url, JSON.stringify(event))).status).toBeLessThan(300);
    await eventually(async () => {
      const runs = await api(h.url, 'GET', `/admin/runs?contact=${contact.id}`, undefined, {
        'x-admin-token': ADMIN_TOKEN,
      });
      return runs.body.data.length > 0 || undefined;
    });

    const events = await exported(h, '/admin/events/export');
    expect(events.status).toBe(200);
    expect(events.type).toContain('application/x-ndjson');
    const recorded = parseEventsFile(events.text, 'events');
    expect(recorded).toContainEqual(
      expect.objectContaining({ id: event.id, type: 'contact.updated', contactId: contact.id }),
    );

    const mirror = await exported(h, '/admin/mirror/export');
    expect(mirror.status).toBe(200);
    const { contacts } = parseContactsFile(mirror.text, 'mirror');
    expect(contacts.map((c) => c.id)).toContain(contact.id);

    const empty = await exported(h, '/admin/events/export?until=2000-01-01T00:00:00Z');
    expect(parseEventsFile(empty.text, 'events')).toEqual([]);
    expect((await exported(h, '/admin/events/export?since=yesterday')).status).toBe(400);

    // The rule removed: the export's contact is the one that loses the action.
    const base = loadRulesFromFiles([{ path: 'vip.yaml', text: RULE }]).ruleSet!.rules;
    const diff = await diffRuleSets(base, [], recorded);
    expect(diff.rules[0]).toMatchObject({ rule: 'vip-on-update', change: 'removed' });
    expect(diff.rules[0].lostContacts).toContain(contact.id);
  });
});
