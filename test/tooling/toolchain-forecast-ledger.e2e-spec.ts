// `crm-rules forecast` counts the customer messages contacts already got against the policy caps:
// read from the engine's ledger on a real Postgres (the policy gate's own query,
// ActionResultsRepository.views.messagesSentTo), recorded to a file and read back from it for a CI
// without the database, and "none known" when the ledger does not answer. `crm-rules diff` reads
// them the same way, up to its first recorded event.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SNAPSHOT_FORMAT } from '../../src/language/crm-terms/crm-snapshot';
import type { MirroredContact } from '../../src/language/crm-terms/mirrored-contact';
import { contactLine, contactsHeader } from '../../src/tooling/toolchain/contacts-file';
import { PRIOR_MESSAGES_FORMAT } from '../../src/tooling/toolchain/prior-messages';
import { eventLine, eventsHeader } from '../../src/tooling/toolchain/recorded-events';
import { createTestDb, type TestDb } from '../support/test-db';
import { contact } from '../../src/language/segment-filters/segment-filter.spec-support';
import { cli, git } from '../support/cli';

const NOW = new Date('2026-11-02T12:00:00Z');
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000);
const RULE = `rule: weekly-nudge
on:
  schedule: '0 6 * * 1'
  segment: { name: Active, filters: { status: active } }
when: every-run
do:
  - send-message: Anything we can help with?
`;
const POLICY = 'caps: [{ max: 1, per: 1d }]\n';

const member = (id: string): MirroredContact =>
  contact({
    id,
    name: id,
    sourceMethod: 'MSG_API_AD',
    stageId: null,
    tags: [],
    tagIds: [],
    customFields: {},
    createdAt: ago(1000),
    updatedAt: ago(1000),
    lastInteractionAt: null,
  });

describe('crm-rules forecast with the messages already sent', () => {
  let db: TestDb;
  let dir: string;
  let rules: string;
  // Unique per run: the test database is shared by nobody, but ids say whose rows they are.
  const [ana, bruno, carla] = ['ana', 'bruno', 'carla'].map((n) => `${n}-${randomUUID()}`);

  async function sent(contactId: string, type: string, status: string, at: Date): Promise<void> {
    const [r] = await db.dataSource.query(
      `INSERT INTO runs (trigger_key, rule_id, rule_version, rule_set_version, contact_id, status, trace, actions, priority)
       VALUES ($1, 'welcome', 'v', 's', $2, 'succeeded', '[]', '[]', 'interactive') RETURNING id`,
      [`event:${randomUUID()}`, contactId],
    );
    await db.dataSource.query(
      `INSERT INTO action_results (run_trigger_at, run_id, action_index, action, status, started_at) VALUES ((SELECT trigger_at FROM runs WHERE id = $1), $1, 0, $2, $3, $4)`,
      [r.id, JSON.stringify({ type }), status, at],
    );
  }

  beforeAll(async () => {
    db = await createTestDb();
    // Ana got a message this morning; Bruno's was two days ago (outside the cap's day) and a tag
    // is not a message; Carla's send failed (never reached her).
    await sent(ana, 'send-message', 'succeeded', ago(3));
    await sent(bruno, 'send-template', 'succeeded', ago(48));
    await sent(bruno, 'add-tag', 'succeeded', ago(1));
    await sent(carla, 'send-message', 'failed', ago(2));
    dir = mkdtempSync(join(tmpdir(), 'crm-rules-forecast-ledger-'));
    rules = join(dir, 'rules');
    mkdirSync(rules);
    for (const [file, text] of [
      ['nudge.yaml', RULE],
      ['policy.yaml', POLICY],
      [
        '.crm-snapshot.json',
        JSON.stringify({
          format: SNAPSHOT_FORMAT,
          takenAt: NOW.toISOString(),
          source: 'test',
          ...{ tags: [], stages: [], channels: [], members: [], customFields: [], templates: [] },
        }),
      ],
      [
        '.crm-contacts.ndjson',
        contactsHeader('test', NOW) + [ana, bruno, carla].map((id) => contactLine(member(id))).join(''),
      ],
    ] as const)
      writeFileSync(join(rules, file), text);
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const forecastJson = async (...extra: string[]) => {
    const { code, out, err } = await cli(
      'forecast',
      rules,
      '--now',
      NOW.toISOString(),
      '--format',
      'json',
      ...extra,
    );
    expect([code, err]).toEqual([0, '']);
    return JSON.parse(out);
  };

  it('reads them from the ledger: the contact messaged this morning is capped', async () => {
    const f = await forecastJson('--ledger', db.url);
    expect(f.rules[0].actions[0]).toMatchObject({ sent: 2, skipped: { policy_cap: 1 } });
    expect(f.priorMessages).toMatchObject({ source: 'ledger', contacts: 1, messages: 1 });
    expect(f.priorMessages.text).toMatch(
      /^prior messages: from the ledger at postgres:\/\/.+: 1 message\(s\) to 1 contact\(s\)/,
    );
  });

  it('records them to a file and reads them back without the database', async () => {
    const file = join(dir, 'prior.ndjson');
    const fromLedger = await forecastJson('--ledger', db.url, '--record-prior-messages', file);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].format).toBe(PRIOR_MESSAGES_FORMAT);
    expect(lines.slice(1)).toEqual([{ contactId: ana, sentAt: [ago(3).toISOString()] }]);
    const fromFile = await forecastJson('--prior-messages', file, '--no-ledger');
    expect(fromFile.rules).toEqual(fromLedger.rules);
    expect(fromFile.priorMessages).toMatchObject({ source: 'file', from: file, messages: 1 });
  });

  it('says none are known when the ledger does not answer, and counts from zero', async () => {
    const { code, out } = await cli(
      'forecast',
      rules,
      '--now',
      NOW.toISOString(),
      '--ledger',
      'postgres://postgres:secret@127.0.0.1:1/none',
    );
    expect(code).toBe(0);
    expect(out).toContain(
      'prior messages: none known (the ledger at postgres://postgres:***@127.0.0.1:1/none did not answer',
    );
    expect(out).toContain('send-message "Anything we can help with?": 3 sent');
    expect(out).not.toContain('secret');
  });

  it('diff: both sides start from the ledger up to the first recorded event', async () => {
    // A cap lowered from 2 to 1 a day. Ana got one at 09:00 (the ledger), then two updates: from
    // zero she loses the 10:30 message; counting the ledger's she already loses the 10:00 one.
    const repo = join(dir, 'diff');
    mkdirSync(join(repo, 'rules'), { recursive: true });
    const write = (file: string, text: string) => writeFileSync(join(repo, 'rules', file), text);
    write('greet.yaml', 'rule: greet\non: contact.updated\ndo: [{ send-message: Hello }]\n');
    write('policy.yaml', 'caps: [{ max: 2, per: 1d }]\n');
    git(repo, 'init', '-q');
    git(repo, 'add', 'rules');
    git(repo, 'commit', '-qm', 'two a day');
    write('policy.yaml', POLICY);
    const events = join(repo, 'events.ndjson');
    const update = (id: string, at: Date) => ({
      id,
      type: 'contact.updated',
      createdAt: at.toISOString(),
      data: { id: ana, name: 'ana', tags: [] },
      contactId: ana,
    });
    writeFileSync(
      events,
      eventsHeader('test', NOW, {}) + [update('e1', ago(2)), update('e2', ago(1.5))].map(eventLine).join(''),
    );
    const diff = async (...extra: string[]) => {
      const { code, out, err } = await cli(
        'diff',
        join(repo, 'rules'),
        '--base',
        'HEAD',
        '--events',
        events,
        '--format',
        'json',
        ...extra,
      );
      expect([code, err]).toEqual([0, '']);
      const d = JSON.parse(out);
      return [
        d.rules.flatMap((r: { lost: { examples: { eventId: string }[] } }) =>
          r.lost.examples.map((c) => c.eventId),
        ),
        d.priorMessages,
      ];
    };
    expect(await diff('--no-ledger')).toEqual([
      ['e2'],
      expect.objectContaining({ source: 'none', messages: 0 }),
    ]);
    expect(await diff('--ledger', db.url)).toEqual([
      ['e1'],
      expect.objectContaining({ source: 'ledger', contacts: 1, messages: 1 }),
    ]);
  });
});
