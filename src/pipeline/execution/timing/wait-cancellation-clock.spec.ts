import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { offsetClock } from '../../../runtime/config/engine-clock';
import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { RunsRepository } from '../../../persistence/ledger/runs.repository';
import { ActionsQueue } from '../../../runtime/queues/actions-queue.service';
import { wakeJobId, type ActionJobData } from '../../../runtime/queues/queue-jobs';
import type { EvaluationFacts } from '../../../language/rules/format/rule-types';
import { WaitCancellationService } from './wait-cancellation.service';

// A wait with on-event resumed by its event: its wake-up job is computed on the engine clock, as
// every delay of the actions queue is (a difference of two engine instants), so a moved clock
// (ENGINE_CLOCK_OFFSET_MS) neither delays it by the offset nor names it by the process clock.
const WALL = new Date('2026-03-02T10:00:00.000Z');
const YEAR = 365 * 86_400_000;

const waitingRun: RunRow = {
  id: 'run-1',
  rule_id: 'ask',
  contact_id: 'c',
  status: 'waiting',
  correlation_id: null,
  contact_snapshot: null,
  priority: 'interactive',
  event_payload: null,
  timing: {
    waits: [
      {
        beforeAction: 1,
        ms: 3_600_000,
        until: { events: ['message.created'] },
        outcomes: { onEvent: [1, 2], onTimeout: [2, 2] },
      },
    ],
  },
  timeline: [{ at: WALL.toISOString(), step: 'waiting', for: 'wait', wait: 0, action: 1 }],
} as unknown as RunRow;

function setUp(offsetMs: number) {
  const added: { jobId?: string; delay?: number }[] = [];
  const bull = { add: async (_n: string, _d: ActionJobData, opts: object) => void added.push(opts) };
  const clock = offsetClock(offsetMs);
  const queue = new ActionsQueue(bull as unknown as Queue<ActionJobData>, clock);
  const runs = {
    goals: { endableByEventOf: async () => [waitingRun] },
    resume: async () => true,
  } as unknown as RunsRepository;
  const waits = new WaitCancellationService({} as DataSource, runs, queue, clock);
  return { waits, queue, added, clock };
}

describe('the engine clock in wait cancellation and the actions queue', () => {
  // setImmediate stays real: the waiting-runs lookup is micro-batched on it.
  beforeEach(() => jest.useFakeTimers({ now: WALL, doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it.each([
    ['the process clock', 0],
    ['a clock a year ahead', YEAR],
    ['a clock a year behind', -YEAR],
  ])('%s: an on-event resume is woken now, named by engine time', async (_case, offset) => {
    const { waits, added, clock } = setUp(offset);
    const facts: EvaluationFacts = {
      event: { id: 'evt-1', type: 'message.created', data: {} },
      message: {},
      now: clock.now(),
    };
    await expect(waits.onEvent('c', facts)).resolves.toBe(1);
    const engineNow = new Date(WALL.getTime() + offset);
    expect(added).toEqual([expect.objectContaining({ jobId: wakeJobId('run-1', engineNow), delay: 0 })]);
  });

  it.each([
    ['the process clock', 0],
    ['a clock a year ahead', YEAR],
    ['a clock a year behind', -YEAR],
  ])(
    '%s: a waiting run re-added wakes after the real time left to its engine time',
    async (_case, offset) => {
      const { queue, added } = setUp(offset);
      const waitingUntil = new Date(WALL.getTime() + offset + 90_000);
      await queue.add({ id: 'run-1', contactId: 'c', priority: 'bulk', waitingUntil });
      expect(added).toEqual([
        expect.objectContaining({ jobId: wakeJobId('run-1', waitingUntil), delay: 90_000 }),
      ]);
    },
  );
});
