import { contactLanes, workLanes } from './event-batch-lanes';

const row = (id: string, contact: string | null) => ({ id, contact_id: contact });

describe('contactLanes', () => {
  it.each([
    {
      name: 'one lane per contact, in the batch order',
      ids: ['e1', 'e2', 'e3', 'e4'],
      rows: [row('e1', 'a'), row('e2', 'b'), row('e3', 'a'), row('e4', 'c')],
      lanes: [['e1', 'e3'], ['e2'], ['e4']],
    },
    {
      name: 'the batch order wins over the order the rows were read in',
      ids: ['e1', 'e2', 'e3'],
      rows: [row('e3', 'a'), row('e2', 'a'), row('e1', 'a')],
      lanes: [['e1', 'e2', 'e3']],
    },
    {
      name: 'an event without a contact is a lane of its own',
      ids: ['e1', 'e2', 'e3'],
      rows: [row('e1', null), row('e2', null), row('e3', 'a')],
      lanes: [['e1'], ['e2'], ['e3']],
    },
    {
      name: 'an id without a row (deleted by retention) is left out',
      ids: ['e1', 'gone', 'e2'],
      rows: [row('e1', 'a'), row('e2', 'a')],
      lanes: [['e1', 'e2']],
    },
    { name: 'nothing read, nothing to do', ids: ['e1'], rows: [], lanes: [] },
  ])('$name', ({ ids, rows, lanes }) => {
    const got = contactLanes(
      ids,
      ids.map((id) => `c-${id}`),
      rows,
    );
    expect(got.map((lane) => lane.map((e) => e.row.id))).toEqual(lanes);
    for (const lane of got) for (const e of lane) expect(e.correlationId).toBe(`c-${e.row.id}`);
  });
});

describe('workLanes', () => {
  it('keeps a lane in order and never runs more lanes at once than allowed', async () => {
    const lanes = [['a1', 'a2', 'a3'], ['b1', 'b2'], ['c1'], ['d1', 'd2']];
    const done: string[] = [];
    let running = 0;
    let most = 0;
    await workLanes(lanes, 2, async (item) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, item.endsWith('1') ? 5 : 1));
      done.push(item);
      running--;
    });
    expect(most).toBe(2);
    expect([...done].sort()).toEqual(lanes.flat().sort());
    for (const lane of lanes) {
      const positions = lane.map((item) => done.indexOf(item));
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
    }
  });

  it('works nothing for no lanes', async () => {
    const work = jest.fn();
    await workLanes([], 4, work);
    expect(work).not.toHaveBeenCalled();
  });
});
