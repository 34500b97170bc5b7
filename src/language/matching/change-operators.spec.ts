import type { ConditionTrace, EvaluationFacts, NameResolver } from '../rules/format/rule-types';
import { changeHolds, type ChangeLeaf } from './change-operators';
import { compileConditions } from './compile-conditions';
import { formatTree } from './format-explain';

const QUALIFIED = '7b0a3c2e-1d2f-4a5b-8c9d-0e1f2a3b4c5d';
const NEW_LEAD = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const names: NameResolver = (kind, name) =>
  kind === 'stage'
    ? ({ qualified: QUALIFIED, 'new lead': NEW_LEAD } as Record<string, string>)[name.toLowerCase()]
    : undefined;
const vip = { id: 't-vip', name: 'VIP' };
const old = { id: 't-old', name: 'old' };

describe('changeHolds', () => {
  it.each<[string, ChangeLeaf, unknown, unknown, boolean]>([
    ['changed: a different value', { operator: 'changed', value: true }, 'a', 'b', true],
    ['changed: the same value', { operator: 'changed', value: true }, 'a', 'a', false],
    ['changed: null to a value', { operator: 'changed', value: true }, null, 'a', true],
    ['changed: null and missing are the same', { operator: 'changed', value: true }, null, undefined, false],
    ['changed: equal custom field lists', { operator: 'changed', value: true }, [1, 2], [1, 2], false],
    [
      'changed: tags reordered are the same',
      { operator: 'changed', value: true, tags: true },
      [vip, old],
      [old, vip],
      false,
    ],
    ['changed: a tag more', { operator: 'changed', value: true, tags: true }, [old], [old, vip], true],
    [
      'changedTo a stage by name',
      { operator: 'changedTo', value: 'Qualified', idKind: 'stage' },
      NEW_LEAD,
      QUALIFIED,
      true,
    ],
    [
      'changedTo a stage by uuid',
      { operator: 'changedTo', value: QUALIFIED, idKind: 'stage' },
      null,
      QUALIFIED,
      true,
    ],
    [
      'changedTo: already on it',
      { operator: 'changedTo', value: 'Qualified', idKind: 'stage' },
      QUALIFIED,
      QUALIFIED,
      false,
    ],
    [
      'changedTo: moved elsewhere',
      { operator: 'changedTo', value: 'Qualified', idKind: 'stage' },
      QUALIFIED,
      NEW_LEAD,
      false,
    ],
    [
      'changedTo an unknown stage name',
      { operator: 'changedTo', value: 'Lost', idKind: 'stage' },
      NEW_LEAD,
      QUALIFIED,
      false,
    ],
    [
      'changedTo null: the stage cleared',
      { operator: 'changedTo', value: null, idKind: 'stage' },
      QUALIFIED,
      null,
      true,
    ],
    [
      'changedFrom a stage',
      { operator: 'changedFrom', value: 'New lead', idKind: 'stage' },
      NEW_LEAD,
      QUALIFIED,
      true,
    ],
    [
      'changedFrom: still on it',
      { operator: 'changedFrom', value: 'New lead', idKind: 'stage' },
      NEW_LEAD,
      NEW_LEAD,
      false,
    ],
    ['changedTo on a plain field', { operator: 'changedTo', value: 'archived' }, 'active', 'archived', true],
    ['changedTo true on isBlocked', { operator: 'changedTo', value: true }, false, true, true],
    ['added: a new tag, by name', { operator: 'added', value: 'vip' }, [old], [old, vip], true],
    ['added: by uuid', { operator: 'added', value: 't-vip' }, [], [vip], true],
    ['added: already there', { operator: 'added', value: 'vip' }, [vip], [vip, old], false],
    ['added: not there', { operator: 'added', value: 'vip' }, [], [old], false],
    ['removed: taken away', { operator: 'removed', value: 'VIP' }, [vip, old], [old], true],
    ['removed: was never there', { operator: 'removed', value: 'vip' }, [old], [], false],
    ['removed: still there', { operator: 'removed', value: 'vip' }, [vip], [vip], false],
  ])('%s', (_name, leaf, before, after, expected) => {
    expect(changeHolds(leaf, before, after, names)).toBe(expected);
  });
});

const facts = (
  contact: Record<string, unknown>,
  previous?: EvaluationFacts['previous'],
): EvaluationFacts => ({
  event: { type: 'contact.updated', data: contact },
  contact,
  now: new Date('2026-01-01T00:00:00Z'),
  names,
  ...(previous ? { previous } : {}),
});

describe('compiled change conditions', () => {
  const toQualified = {
    all: [{ fact: 'contact', path: '$.stageId', operator: 'changedTo', value: 'Qualified' }],
  };
  const notAdded = { all: [{ fact: 'contact', path: '$.tags', operator: 'not:added', value: 'vip' }] };

  it.each<[string, Record<string, unknown>, Record<string, unknown>, EvaluationFacts['previous'], boolean]>([
    [
      'matches a change of stage',
      toQualified,
      { stageId: QUALIFIED },
      { contact: { stageId: NEW_LEAD } },
      true,
    ],
    [
      'does not match an update on the stage',
      toQualified,
      { stageId: QUALIFIED },
      { contact: { stageId: QUALIFIED } },
      false,
    ],
    [
      'does not match without previous state',
      toQualified,
      { stageId: QUALIFIED },
      { missing: 'first sight of the contact' },
      false,
    ],
    ['does not match when previous was not read', toQualified, { stageId: QUALIFIED }, undefined, false],
    ['not: inverts a change', notAdded, { tags: [vip] }, { contact: { tags: [] } }, false],
    ['not: passes when nothing was added', notAdded, { tags: [vip] }, { contact: { tags: [vip] } }, true],
    [
      'not: never matches without previous state',
      notAdded,
      { tags: [] },
      { missing: 'first sight of the contact' },
      false,
    ],
  ])('%s', (_name, conditions, contact, previous, expected) => {
    const { evaluate, facts: roots } = compileConditions(conditions);
    expect(roots.has('previous')).toBe(true);
    expect(evaluate(facts(contact, previous), [])).toBe(expected);
    expect(evaluate(facts(contact, previous), null)).toBe(expected);
  });

  it('records the value before and after in the trace', () => {
    const trace: ConditionTrace[] = [];
    compileConditions(toQualified).evaluate(
      facts({ stageId: QUALIFIED }, { contact: { stageId: NEW_LEAD } }),
      trace,
    );
    expect(trace).toEqual([
      expect.objectContaining({ operator: 'changedTo', before: NEW_LEAD, actual: QUALIFIED, result: true }),
    ]);
  });

  it('says "no previous state" in the trace, and why', () => {
    const trace: ConditionTrace[] = [];
    compileConditions(toQualified).evaluate(
      facts({ stageId: QUALIFIED }, { missing: 'first sight of the contact' }),
      trace,
    );
    expect(trace[0]).toMatchObject({ result: false, note: 'no previous state: first sight of the contact' });
  });

  it('shows tags by name on both sides', () => {
    const trace: ConditionTrace[] = [];
    const added = { all: [{ fact: 'contact', path: '$.tags', operator: 'added', value: 'vip' }] };
    compileConditions(added).evaluate(facts({ tags: [old, vip] }, { contact: { tags: [old] } }), trace);
    expect(trace[0]).toMatchObject({ before: ['old'], actual: ['old', 'VIP'], result: true });
  });

  it('does not read previous for rules without change operators', () => {
    const { facts: roots } = compileConditions({
      all: [{ fact: 'contact', path: '$.stageId', operator: 'equal', value: QUALIFIED }],
    });
    expect(roots.has('previous')).toBe(false);
  });
});

describe('the explain text of change conditions', () => {
  const conditions = {
    all: [{ fact: 'contact', path: '$.stageId', operator: 'changedTo', value: 'Qualified' }],
  };
  it.each<[string, EvaluationFacts['previous'], string]>([
    [
      'shows the value before and after',
      { contact: { stageId: NEW_LEAD } },
      `✔ contact.stageId changedTo "Qualified": saw "${NEW_LEAD}" → "${QUALIFIED}"`,
    ],
    [
      'says there was no previous state',
      { missing: 'first sight of the contact' },
      `✘ contact.stageId changedTo "Qualified": saw "${QUALIFIED}" (no previous state: first sight of the contact)`,
    ],
  ])('%s', (_name, previous, line) => {
    const trace: ConditionTrace[] = [];
    compileConditions(conditions).evaluate(facts({ stageId: QUALIFIED }, previous), trace);
    expect(formatTree(conditions, trace, '')).toContain(`  ${line}`);
  });
});
