// The runner's http-request helpers: one key per action across attempts, saved values by name.
import type { ActionStatus } from '../../language/catalogue/action-result-terms';
import type { ActionRow } from '../../persistence/ledger/action-results.repository';
import { idempotencyKey, outboundFor, savedSteps } from './http-request-action';

const sender = { send: jest.fn(), secretIn: () => undefined };

describe('http steps', () => {
  it('derives the same key for the same action and different keys for others', () => {
    expect(idempotencyKey('run-1', 2)).toBe(idempotencyKey('run-1', 2));
    expect(
      new Set([idempotencyKey('run-1', 2), idempotencyKey('run-1', 3), idempotencyKey('run-2', 2)]).size,
    ).toBe(3);
  });

  it.each([
    ['idempotent-by-key', true],
    ['state-checked', false],
    ['at-most-once', false],
  ])('gives %s actions an outbound environment: %p', (repeat, given) => {
    expect(outboundFor(repeat, sender, 'run-1', 0) !== undefined).toBe(given);
  });

  const lookup = {
    type: 'http-request',
    name: 'erp',
    method: 'GET',
    url: 'https://erp.test/x',
    timeoutMs: 1000,
  } as const;

  it.each<[string, ActionStatus, ActionRow['saved'], Record<string, unknown>]>([
    ['a succeeded lookup', 'succeeded', { s: 'shipped' }, { erp: { s: 'shipped' } }],
    ['a failed lookup', 'failed', null, {}],
    ['a pending lookup', 'pending', null, {}],
    ['a lookup without save', 'succeeded', null, {}],
  ])('rebuilds the saved values after %s', (_what, status, saved, expected) => {
    const rows: Pick<ActionRow, 'action' | 'status' | 'saved'>[] = [
      { action: { type: 'add-tag', tag: 'x' }, status: 'succeeded', saved: null },
      { action: lookup, status, saved },
    ];
    expect(savedSteps(rows)).toEqual(expected);
  });
});
