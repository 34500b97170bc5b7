import { buildTimeline } from './timeline';

const delivery = (over: Record<string, unknown>) => ({
  id: 'e1',
  type: 'contact.updated',
  eventKey: 'evt_1',
  status: 'processed',
  outcome: null,
  unmatched: { set: 'v1', rules: 2 },
  error: null,
  contactVersion: '2026-11-28T10:00:00.000Z',
  receivedAt: new Date('2026-11-28T10:00:01Z'),
  processedAt: new Date('2026-11-28T10:00:01Z'),
  ...over,
});

describe('a delivery on the contact timeline', () => {
  it.each([
    [
      'an unmatched update: the decision and the version the mirror took',
      {},
      'event evt_1; no rule matched: 2 rule(s) of rule set v1 listened; mirror updated: contact as of 2026-11-28T10:00:00.000Z',
    ],
    [
      'a matched update',
      { unmatched: null },
      'event evt_1; a rule matched: its runs are below and in the Runs list; mirror updated: contact as of 2026-11-28T10:00:00.000Z',
    ],
    [
      'a payload the mirror refused',
      { outcome: 'mirror_skipped', error: 'bad date' },
      'event evt_1; no rule matched: 2 rule(s) of rule set v1 listened: bad date; the mirror did not take the payload',
    ],
    ['a pending event', { status: 'pending' }, 'event evt_1; pending'],
    [
      'a message event: no mirror',
      { type: 'message.created', contactVersion: null },
      'event evt_1; no rule matched: 2 rule(s) of rule set v1 listened',
    ],
    [
      'a replay: old news, the mirror is not touched',
      { eventKey: 'replay:evt_1:1' },
      'event replay:evt_1:1; no rule matched: 2 rule(s) of rule set v1 listened',
    ],
  ])('%s', (_, over, detail) => {
    const [step] = buildTimeline({
      deliveries: [delivery(over)] as never,
      runs: [],
      actions: [],
      journal: [],
    });
    expect(step.detail).toBe(detail);
    expect(step.href).toBe('/console/events/e1');
  });
});
