import { Logger } from '@nestjs/common';
import type { Contact } from '@crm-rules/crm-contract';
import type { RunRow } from '../../../persistence/ledger/run-rows';
import type { EngineMetrics } from '../../../operator/ops/engine-metrics';
import type { MessagingPolicy } from '../../../language/policy/messaging-policy';
import type { RuleSetService } from '../../../runtime/rule-set/rule-set.service';
import { judgedAt, PolicyGateService } from './policy-gate.service';
import type { RunTimingService, TimingLedger } from './run-timing.service';

const POLICY: MessagingPolicy = {
  hash: 'x',
  timezone: 'UTC',
  caps: [{ max: 1, per: '1d', perMs: 86_400_000 }],
  overCap: 'skip',
  inQuietHours: 'defer',
  calendars: {},
};
const run = { id: 'r1', rule_id: 'rule', contact_id: 'c1', event_payload: null } as unknown as RunRow;
const contact = { id: 'c1' } as Contact;
const row = (type: string) => ({ id: 'a1', action_index: 0, action: { type } });

function setUp(policy: MessagingPolicy | undefined, sent: Date[] = []) {
  const queries: string[] = [];
  const ledger = {
    actions: {
      views: {
        messagesWithCategorySentTo: async () => (queries.push('messagesSentTo'), sent.map((at) => ({ at }))),
      },
      skip: async () => void queries.push('skip'),
    },
    runs: { record: async () => void queries.push('record') },
  } as unknown as TimingLedger;
  const rules = { current: () => ({ policy }) } as unknown as RuleSetService;
  const metrics = { actions: { inc: () => undefined } } as unknown as EngineMetrics;
  const gate = new PolicyGateService(rules, {} as RunTimingService, metrics);
  return { gate, ledger, queries };
}

// The policy is on the action path: it must cost nothing where it has no say.
describe('PolicyGateService', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['no policy, a message', undefined, 'send-message'],
    ['a policy, a tag', POLICY, 'add-tag'],
    ['a policy, a reaction (not a new message)', POLICY, 'react'],
  ])('%s: goes without a query', async (_name, policy, type) => {
    const { gate, ledger, queries } = setUp(policy);
    await expect(gate.gate(ledger, run, row(type), contact)).resolves.toBe('go');
    expect(queries).toEqual([]);
  });

  it('counts from the ledger once per customer message, and skips over the cap', async () => {
    const { gate, ledger, queries } = setUp(POLICY, [new Date(Date.now() - 60_000)]);
    await expect(gate.gate(ledger, run, row('send-template'), contact)).resolves.toBe('skip');
    expect(queries).toEqual(['messagesSentTo', 'skip', 'record']);
  });
});

describe('judgedAt', () => {
  const now = new Date('2026-06-11T05:59:59.600Z');
  const waited = (until: string) =>
    ({
      timeline: [
        { at: '2026-06-10T20:30:00.000Z', step: 'waiting', for: 'policy', until },
        { at: now.toISOString(), step: 'resumed' },
      ],
    }) as unknown as RunRow;
  it.each([
    [
      'woken 400 ms early: judged when it was due',
      waited('2026-06-11T06:00:00.000Z'),
      '2026-06-11T06:00:00.000Z',
    ],
    ['woken after it was due: now', waited('2026-06-11T05:59:00.000Z'), now.toISOString()],
    ['a wait far ahead (not a wake-up): now', waited('2026-06-11T07:00:00.000Z'), now.toISOString()],
    ['never waited: now', { timeline: [] } as unknown as RunRow, now.toISOString()],
  ])('%s', (_name, run, expected) => {
    expect(judgedAt(run, now).toISOString()).toBe(expected);
  });
});
