import { ContactMirrorRepository } from '../../../src/pipeline/contact-mirror/contact-mirror.repository';
import { fromMirrorRow, mirrorRecords } from '../../../src/pipeline/contact-mirror/mirror-records';
import { toMirroredContact, type MirroredContact } from '../../../src/language/crm-terms/mirrored-contact';
import { resolveRelativeDates } from '../../../src/language/segment-filters/resolved-filters';
import { matchesSegment } from '../../../src/language/segment-filters/segment-filter';
import { segmentWhere } from '../../../src/language/segment-filters/segment-sql';
import { createTestDb, type TestDb } from '../../support/test-db';
import { generateContact, generateFilters, random } from './support/generate-contacts';

const CONTACTS = 5000;
const FILTERS = 400;
const NOW = new Date('2025-06-15T12:00:00Z');

// The SQL WHERE (segment-sql.ts) and the pure predicate (segment-filter.ts) must select exactly
// the same contacts: the sweep evaluates in SQL, traces and plans use the pure function.
jest.setTimeout(60_000);

describe('segment filters in SQL and in TypeScript', () => {
  let db: TestDb;
  let contacts: MirroredContact[];

  beforeAll(async () => {
    db = await createTestDb();
    const rnd = random(20250615);
    const generated = Array.from({ length: CONTACTS }, (_, i) => generateContact(rnd, i));
    const mirror = new ContactMirrorRepository(db.dataSource);
    for (let i = 0; i < generated.length; i += 1000)
      await mirror.upsert(JSON.stringify(mirrorRecords(generated.slice(i, i + 1000))), 1);
    contacts = (await mirror.pageAfter('', CONTACTS + 1)).map(fromMirrorRow);
    expect(contacts).toEqual(generated.map(toMirroredContact).sort((a, b) => (a.id < b.id ? -1 : 1)));
  });
  afterAll(async () => db?.drop());

  it(`agree on ${CONTACTS} generated contacts for ${FILTERS} generated filters`, async () => {
    const rnd = random(42);
    const disagreements: string[] = [];
    let nonTrivial = 0;
    for (let i = 0; i < FILTERS; i++) {
      const filters = resolveRelativeDates(generateFilters(rnd) as never, NOW);
      const where = segmentWhere(filters, 'm', 1);
      const rows: { id: string }[] = await db.dataSource.query(
        `SELECT m.id FROM contact_mirror m WHERE ${where.sql}`,
        where.params,
      );
      const sql = new Set(rows.map((r) => r.id));
      const pure = contacts.filter((c) => matchesSegment(filters, c, NOW).matched);
      if (pure.length > 0 && pure.length < CONTACTS) nonTrivial++;
      const wrong =
        pure.filter((c) => !sql.has(c.id)).length + (sql.size - pure.filter((c) => sql.has(c.id)).length);
      if (wrong > 0)
        disagreements.push(
          `${JSON.stringify(filters)}: ${wrong} contact(s) differ (sql ${sql.size}, pure ${pure.length})`,
        );
    }
    expect(disagreements).toEqual([]);
    // A generator that only produced everyone-or-no-one filters would prove nothing.
    expect(nonTrivial).toBeGreaterThan(FILTERS / 2);
  }, 120_000);

  it('treats an empty filter as everyone in both', async () => {
    const where = segmentWhere(resolveRelativeDates({}, NOW));
    const [{ n }] = await db.dataSource.query(
      `SELECT count(*)::int AS n FROM contact_mirror m WHERE ${where.sql}`,
      where.params,
    );
    expect(n).toBe(CONTACTS);
  });
});
