import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { EvaluationFacts } from '../../../language/rules/format/rule-types';
import { cancellationBy, waitingByContact } from './wait-cancellation.service';

const now = new Date('2024-05-06T10:00:00Z');
const at = now.toISOString();

const slaRun = (waitingOnWait = true): RunRow => ({
  id: 'run-1',
  rule_id: 'sla',
  contact_id: 'c',
  status: 'waiting',
  correlation_id: null,
  contact_snapshot: null,
  priority: 'interactive',
  event_payload: { type: 'message.created', data: { id: 'm1', conversationId: 'conv-1', isOutgoing: false } },
  timing: {
    waits: [
      {
        beforeAction: 0,
        ms: 7_200_000,
        until: {
          events: ['message.created'],
          where: { all: [{ fact: 'message', path: '$.isOutgoing', operator: 'equal', value: true }] },
          sameConversation: true,
        },
      },
    ],
  },
  timeline: waitingOnWait
    ? [{ at, step: 'waiting', for: 'wait', wait: 0, action: 0 }]
    : [{ at, step: 'waiting', for: 'window' }],
});

const event = (type: string, data: Record<string, unknown>): EvaluationFacts => ({
  event: { id: 'evt-9', type, data },
  ...(type.startsWith('message.') ? { message: data } : { contact: data }),
  now,
});

describe('cancellationBy', () => {
  it.each<[string, RunRow, EvaluationFacts, string | undefined]>([
    [
      'a reply in the same conversation',
      slaRun(),
      event('message.created', { conversationId: 'conv-1', isOutgoing: true }),
      'until_event',
    ],
    [
      'another inbound message',
      slaRun(),
      event('message.created', { conversationId: 'conv-1', isOutgoing: false }),
      undefined,
    ],
    [
      'a reply elsewhere',
      slaRun(),
      event('message.created', { conversationId: 'conv-2', isOutgoing: true }),
      undefined,
    ],
    ['the contact deleted', slaRun(), event('contact.deleted', { id: 'c' }), 'contact_deleted'],
    [
      'a reply while the run waits for a window',
      slaRun(false),
      event('message.created', { conversationId: 'conv-1', isOutgoing: true }),
      undefined,
    ],
    [
      'the contact deleted while it waits for a window',
      slaRun(false),
      event('contact.deleted', { id: 'c' }),
      'contact_deleted',
    ],
  ])('%s -> %s', (_name, run, facts, reason) => {
    expect(cancellationBy(run, facts)?.reason).toBe(reason);
  });

  it('names the event that ended the wait', () => {
    const entry = cancellationBy(
      slaRun(),
      event('message.created', { conversationId: 'conv-1', isOutgoing: true }),
    );
    expect(entry).toEqual({
      at,
      step: 'cancelled',
      action: 0,
      reason: 'until_event',
      detail: 'message.created evt-9 arrived during the wait',
    });
  });
});

describe('cancellationBy: waits with on-event, goals', () => {
  const withOutcomes = (): RunRow => {
    const run = slaRun();
    run.timing!.waits![0].outcomes = true;
    return run;
  };
  const withGoal = (): RunRow => ({
    ...slaRun(),
    timing: {
      ...slaRun().timing,
      goal: { all: [{ fact: 'contact', path: '$.stageId', operator: 'equal', value: 'stage-customer' }] },
    },
  });
  const reply = event('message.created', { conversationId: 'conv-1', isOutgoing: true, text: 'Hi' });

  it('resumes a wait with on-event instead of cancelling it, keeping the event for its facts', () => {
    expect(cancellationBy(withOutcomes(), reply)).toEqual({
      at,
      step: 'resumed',
      for: 'wait',
      wait: 0,
      action: 0,
      reason: 'until_event',
      event: {
        type: 'message.created',
        id: 'evt-9',
        data: { conversationId: 'conv-1', isOutgoing: true, text: 'Hi' },
      },
    });
  });

  it.each<[string, RunRow, EvaluationFacts, string | undefined, string | undefined]>([
    [
      'the goal met',
      withGoal(),
      event('contact.updated', { id: 'c', stageId: 'stage-customer' }),
      'cancelled',
      'goal_reached',
    ],
    [
      'the goal not met',
      withGoal(),
      event('contact.updated', { id: 'c', stageId: 'stage-lead' }),
      undefined,
      undefined,
    ],
    [
      'a deleted contact with outcomes',
      withOutcomes(),
      event('contact.deleted', { id: 'c' }),
      'cancelled',
      'contact_deleted',
    ],
    [
      'an inbound message with outcomes',
      withOutcomes(),
      event('message.created', { conversationId: 'conv-1', isOutgoing: false }),
      undefined,
      undefined,
    ],
  ])('%s -> %s %s', (_name, run, facts, step, reason) => {
    const entry = cancellationBy(run, facts);
    expect([entry?.step, entry?.reason]).toEqual([step, reason]);
  });
});

describe('waitingByContact (one lookup shared by a batch of events)', () => {
  const run = (id: string, contact: string): RunRow => ({ ...slaRun(), id, contact_id: contact });
  const rows = [run('r1', 'a'), run('r2', 'b'), run('r3', 'a')];
  it.each([
    { name: 'each contact its own runs, in order', ids: ['a', 'b'], out: [['r1', 'r3'], ['r2']] },
    { name: 'a contact without waiting runs gets none', ids: ['c', 'b'], out: [[], ['r2']] },
    { name: 'two events of one contact both see its runs', ids: ['b', 'b'], out: [['r2'], ['r2']] },
  ])('$name', ({ ids, out }) => {
    expect(waitingByContact(ids, rows).map((runs) => runs.map((r) => r.id))).toEqual(out);
  });
});
