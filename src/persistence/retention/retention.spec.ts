import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BOUNDED_TABLES,
  GROWING_TABLES,
  pruneInBatches,
  retentionCutoff,
  retentionCutoffs,
} from './retention';

describe('retention', () => {
  it.each([
    [30, '2026-01-31T12:00:00.000Z', '2026-01-01T12:00:00.000Z'],
    [1, '2026-03-01T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
  ])('keeps %i day(s) before %s', (days, now, cutoff) => {
    expect(retentionCutoff(new Date(now), days).toISOString()).toBe(cutoff);
  });

  it.each([
    ['nothing to delete', [0], 0, 1],
    ['less than one batch', [7], 7, 1],
    ['exactly one batch, then nothing', [10, 0], 10, 2],
    ['several batches', [10, 10, 3], 23, 3],
  ])('deletes in batches until one comes back short: %s', async (_name, batches, total, calls) => {
    const seen: number[] = [];
    const result = await pruneInBatches(async (limit) => {
      seen.push(limit);
      return batches[seen.length - 1] ?? 0;
    }, 10);
    expect({ result, calls: seen.length, limits: new Set(seen) }).toEqual({
      result: total,
      calls,
      limits: new Set([10]),
    });
  });

  it('stops after maxBatches even if rows keep coming', async () => {
    expect(await pruneInBatches(async (limit) => limit, 5, 3)).toBe(15);
  });
});

describe('the list of growing tables', () => {
  const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'RELIABILITY.md'), 'utf8');
  const retentionTable = doc.slice(doc.indexOf('## Retention'), doc.indexOf('## Chaos suite'));

  it.each(GROWING_TABLES.map((t) => [t.table, t.horizon] as const))(
    '%s is in the retention table of docs/RELIABILITY.md with its horizon',
    (table, horizon) => {
      const row = retentionTable.split('\n').find((line) => line.startsWith(`| \`${table}\` |`));
      expect(row).toBeDefined();
      if (!('prunedWith' in (GROWING_TABLES.find((t) => t.table === table) ?? {})))
        expect(row).toContain(
          {
            audit: 'RETENTION_AUDIT_DAYS',
            ledger: 'RETENTION_DAYS',
            session: 'CONSOLE_SESSION_IDLE_MINUTES',
          }[horizon],
        );
    },
  );

  it('names no table both growing and bounded', () => {
    expect(GROWING_TABLES.filter((t) => t.table in BOUNDED_TABLES)).toEqual([]);
  });

  it.each([['2026-01-31T12:00:00.000Z', 30, 365, '2026-01-01T12:00:00.000Z', '2025-01-31T12:00:00.000Z']])(
    'at %s keeps the ledger %i days and the audit %i days',
    (now, ledger, audit, ledgerCut, auditCut) => {
      const cut = retentionCutoffs(new Date(now), { ledger, audit });
      expect([cut.ledger.toISOString(), cut.audit.toISOString()]).toEqual([ledgerCut, auditCut]);
    },
  );
});
