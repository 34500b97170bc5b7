// Manual runs' trigger keys (who asked) and which rules may be run by hand.
import { manualRunBy, manualRunRefusal, manualTriggerKey } from './manual-trigger';

describe('manual trigger keys', () => {
  it.each([
    ['admin-api', 'admin-api'],
    ['console:3f9a1c2b', 'console:3f9a1c2b'],
  ])('keeps who asked (%s)', (who, expected) => {
    expect(manualRunBy(manualTriggerKey(who, 'r-1'))).toBe(expected);
  });

  it.each([['event:0b4f1e3a'], ['sweep:x:y'], ['manual:']])('reads no caller from %s', (key) => {
    expect(manualRunBy(key)).toBeUndefined();
  });
});

describe('manualRunRefusal', () => {
  const event = { id: 'r', enabled: true, trigger: { kind: 'event' } };
  it.each([
    ['an event rule', event, undefined],
    ['an unknown rule', undefined, 404],
    ['a segment rule', { ...event, trigger: { kind: 'schedule' } }, 409],
    ['a disabled rule', { ...event, enabled: false }, 409],
  ])('%s', (_what, rule, status) => {
    expect(manualRunRefusal(rule, 'r')?.status).toBe(status);
  });
});
