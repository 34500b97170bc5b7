// The console's contact search on the mirror (Postgres): "Dana" finds Dana Demo, by name, phone or
// email, case-insensitive, on the trigram index; and one contact version gives one "mirror
// updated" line in the journal however many times it is mirrored (the runner's write answer,
// then the CRM's webhook of the same version).
import type { Contact } from '@crm-rules/crm-contract';
import { ContactMirrorRepository } from '../../../src/pipeline/contact-mirror/contact-mirror.repository';
import { ContactNamesService } from '../../../src/pipeline/contact-mirror/contact-names.service';
import { mirrorRecords } from '../../../src/pipeline/contact-mirror/mirror-records';
import { ContactJournalRepository } from '../../../src/persistence/journal/contact-journal.repository';
import { createTestDb, type TestDb } from '../../support/test-db';

const at = '2026-01-01T00:00:00.000Z';
const contact = (id: string, name: string, phone: string, email: string | null): Contact =>
  ({
    id,
    name,
    phone,
    email,
    avatar: null,
    notes: null,
    status: 'active',
    isBlocked: false,
    sourceMethod: 'MANUAL',
    assigneeId: null,
    stageId: null,
    tags: [],
    customFields: {},
    createdAt: at,
    updatedAt: at,
    lastInteractionAt: null,
  }) as unknown as Contact;

const DANA = 'd0000000-0000-4000-8000-000000000042';

describe('contact search and names (the mirror)', () => {
  let db: TestDb;
  let names: ContactNamesService;

  beforeAll(async () => {
    db = await createTestDb();
    const repo = new ContactMirrorRepository(db.dataSource);
    await repo.upsert(
      JSON.stringify(
        mirrorRecords([
          contact(DANA, 'Dana Demo', '5511900000042', 'dana@demo.test'),
          contact(
            'c0000000-0000-4000-8000-000000000001',
            'Maria Silva',
            '5511987654321',
            'maria@example.com',
          ),
          contact('c0000000-0000-4000-8000-000000000002', 'Lukas 100%_Müller', '4915112345678', null),
        ]),
      ),
      0,
    );
    names = new ContactNamesService(db.dataSource);
  });
  afterAll(async () => db?.drop());

  it.each([
    ['Dana', [DANA]],
    ['dana demo', [DANA]],
    ['DEMO', [DANA]],
    ['dana@demo', [DANA]],
    ['+55 11 90000-0042', [DANA]],
    ['5511', [DANA, 'c0000000-0000-4000-8000-000000000001']],
    ['100%_', ['c0000000-0000-4000-8000-000000000002']],
    ['%', []],
    ['nobody', []],
  ])('finds %j', async (typed, ids) => {
    expect((await names.search(typed)).map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it('names ids the mirror holds and leaves out the others', async () => {
    const got = await names.of([DANA, 'c0000000-0000-4000-8000-00000000dead']);
    expect([...got.values()]).toEqual([
      { id: DANA, name: 'Dana Demo', phone: '5511900000042', email: 'dana@demo.test' },
    ]);
  });

  it('searches on the trigram index IDX_contact_mirror_search', async () => {
    const plan = await db.dataSource.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query(
        `EXPLAIN SELECT id FROM contact_mirror WHERE lower(name || ' ' || phone || ' ' || coalesce(email, '')) LIKE '%' || $1 || '%'`,
        ['dana'],
      );
    });
    expect(plan.map((p: { 'QUERY PLAN': string }) => p['QUERY PLAN']).join('\n')).toContain(
      'IDX_contact_mirror_search',
    );
  });

  it('mirror updated twice: one contact version, one journal line (runner answer, then webhook)', async () => {
    const journal = new ContactJournalRepository(db.dataSource);
    const entry = {
      contactId: DANA,
      kind: 'mirror.updated' as const,
      detail: { source: 'contact.updated', updatedAt: at },
    };
    journal.note(entry);
    await journal.flush();
    journal.note(entry);
    journal.note({ ...entry, detail: { ...entry.detail, updatedAt: '2026-01-02T00:00:00.000Z' } });
    await journal.flush();
    const rows = await journal.forContact(DANA, 10);
    expect(rows.map((r) => (r.detail as { updatedAt: string }).updatedAt)).toEqual([
      at,
      '2026-01-02T00:00:00.000Z',
    ]);
  });
});
