import { demoDatabaseVerdict, type DemoDatabaseState } from './demo-database';

const base: DemoDatabaseState = {
  nodeEnv: 'development',
  marked: false,
  tablesWithRows: [],
  database: 'crm_rules',
};

describe('demoDatabaseVerdict: the demo never erases a real ledger', () => {
  it.each<[string, Partial<DemoDatabaseState>, string]>([
    ['an empty database: marked, then cleaned', {}, 'clean+mark'],
    ['a marked database: cleaned', { marked: true, tablesWithRows: ['runs'] }, 'clean'],
    ['rows and no marker: refused', { tablesWithRows: ['runs', 'inbox_events'] }, 'refuse'],
    ['production, even empty: refused', { nodeEnv: 'production' }, 'refuse'],
    ['production, even marked: refused', { nodeEnv: 'production', marked: true }, 'refuse'],
    ['test env with a marker: cleaned', { nodeEnv: 'test', marked: true }, 'clean'],
  ])('%s', (_name, state, expected) => {
    const v = demoDatabaseVerdict({ ...base, ...state });
    expect(v.kind === 'clean' ? (v.mark ? 'clean+mark' : 'clean') : 'refuse').toBe(expected);
  });

  it('names the tables holding rows and the database, and says nothing was erased', () => {
    const v = demoDatabaseVerdict({ ...base, tablesWithRows: ['runs', 'inbox_events'] });
    expect(v).toMatchObject({ kind: 'refuse' });
    const { message } = v as { message: string };
    expect(message).toContain('"crm_rules" holds rows (runs, inbox_events) but no demo marker');
    expect(message).toContain('nothing was erased');
  });

  it('names NODE_ENV and CRM_BASE_URL when production would run the demo', () => {
    const v = demoDatabaseVerdict({ ...base, nodeEnv: 'production' }) as { message: string };
    expect(v.message).toMatch(/^NODE_ENV=production with ROLE=all and no CRM_BASE_URL/);
    expect(v.message).toContain('nothing was erased');
  });
});
