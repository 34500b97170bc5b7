import { chooseMember, type PoolMember } from './choose-member';
import type { PoolSpec } from './pool-spec';

const ana: PoolMember = { id: 'a', name: 'Ana', email: 'ana@x', role: 'billing', status: 'active' };
const ben: PoolMember = { id: 'b', name: 'Ben', email: 'ben@x', role: 'billing', status: 'active' };
const cid: PoolMember = { id: 'c', name: 'Cid', email: 'cid@x', role: 'billing', status: 'archived' };
const dan: PoolMember = { id: 'd', name: 'Dan', email: 'dan@x', role: 'sales', status: 'active' };
const members = [ana, ben, cid, dan];
const spec = (s: Partial<PoolSpec>): PoolSpec => ({
  pool: ['Ana', 'Ben', 'Cid'],
  strategy: 'round-robin',
  skipInactive: true,
  ...s,
});

describe('chooseMember', () => {
  it.each([
    ['round-robin skips the archived member, turn 1', spec({}), {}, 1, 'Ana'],
    ['round-robin skips the archived member, turn 2', spec({}), {}, 2, 'Ben'],
    ['round-robin wraps over the two active ones', spec({}), {}, 3, 'Ana'],
    ['a role names every member who has it', spec({ pool: ['role: billing'] }), {}, 2, 'Ben'],
    ['emails and ids name members too', spec({ pool: ['ben@x', 'd'] }), {}, 2, 'Dan'],
    ['least-open picks the fewest', spec({ strategy: 'least-open' }), { a: 4, b: 1, c: 0 }, 1, 'Ben'],
    ['least-open ties go by the rotation', spec({ strategy: 'least-open' }), { a: 2, b: 2 }, 2, 'Ben'],
    ['max-open leaves out who is at it', spec({ maxOpen: 3 }), { a: 3, b: 2 }, 1, 'Ben'],
    ['weighted walks a 2:1 cycle', spec({ strategy: 'weighted', weights: { Ana: 2 } }), {}, 2, 'Ana'],
    [
      'weighted gives the third turn to the lighter one',
      spec({ strategy: 'weighted', weights: { Ana: 2 } }),
      {},
      3,
      'Ben',
    ],
    ['skip-inactive false keeps the archived member', spec({ skipInactive: false }), {}, 3, 'Cid'],
  ])('%s', (_name, s, open, turn, expected) => {
    const choice = chooseMember(s, { members, openCounts: open, turn });
    expect(choice.picked?.name).toBe(expected);
  });

  it('explains who was eligible and why the others were not', () => {
    const choice = chooseMember(spec({ strategy: 'least-open', maxOpen: 3 }), {
      members,
      openCounts: { a: 3, b: 1 },
      turn: 1,
    });
    expect(choice).toMatchObject({
      eligible: ['Ben'],
      excluded: [
        { member: 'Ana', why: 'at_max_open' },
        { member: 'Cid', why: 'inactive' },
      ],
      why: 'least-open: Ben has 1 open',
    });
  });

  it.each([
    ['every member at max-open', spec({ maxOpen: 2 }), { a: 2, b: 5 }, 'pool_full'],
    ['only archived members', spec({ pool: ['Cid'] }), {}, 'pool_empty'],
    ['a role nobody has', spec({ pool: ['role: support'] }), {}, 'pool_empty'],
    ['least-open with no counts', spec({ strategy: 'least-open' }), undefined, 'pool_empty'],
  ])('picks nobody for %s', (_name, s, open, reason) => {
    const choice = chooseMember(s, { members, openCounts: open, turn: 1 });
    expect(choice).toMatchObject({ picked: undefined, reason });
  });
});
