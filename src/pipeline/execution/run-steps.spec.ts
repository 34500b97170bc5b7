import type { Contact } from '@crm-rules/crm-contract';
import type { ActionStatus } from '../../language/catalogue/action-result-terms';
import { freshestContact, needsFreshRead, nextStep } from './run-steps';

describe('nextStep', () => {
  it.each([
    ['pending', 'execute'],
    ['running', 'reread'],
    ['succeeded', 'skip'],
    ['skipped', 'skip'],
    ['failed', 'stop'],
    ['dead', 'stop'],
  ] as const)('a %s action → %s', (status, step) => {
    expect(nextStep(status)).toBe(step);
  });
});

describe('needsFreshRead', () => {
  it.each([
    [[], false],
    [['pending', 'pending'], false],
    [['succeeded', 'pending'], false],
    [['succeeded', 'running', 'pending'], true],
    [['running'], true],
  ] as [ActionStatus[], boolean][])('%j → %s', (statuses, expected) => {
    expect(needsFreshRead(statuses)).toBe(expected);
  });
});

describe('freshestContact', () => {
  const at = (updatedAt: string | undefined, name: string) => ({ id: 'c1', name, updatedAt }) as Contact;
  it.each([
    ['no mirror row', at('2025-01-02T00:00:00Z', 'snap'), undefined, 'snap'],
    ['mirror newer', at('2025-01-02T00:00:00Z', 'snap'), at('2025-01-03T00:00:00Z', 'mirror'), 'mirror'],
    ['mirror older', at('2025-01-02T00:00:00Z', 'snap'), at('2025-01-01T00:00:00Z', 'mirror'), 'snap'],
    ['same instant', at('2025-01-02T00:00:00Z', 'snap'), at('2025-01-02T00:00:00Z', 'mirror'), 'snap'],
    ['snapshot without updatedAt', at(undefined, 'snap'), at('2025-01-01T00:00:00Z', 'mirror'), 'mirror'],
  ])('%s → %s', (_, snapshot, mirrored, expected) => {
    expect(freshestContact(snapshot, mirrored).name).toBe(expected);
  });
});
