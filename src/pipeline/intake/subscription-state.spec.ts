import { subscriptionState } from './subscription-state';

const URL = 'https://engine.example/webhooks/crm';
const now = new Date('2026-11-28T12:00:00Z');
const sub = (id: string, enabled: boolean | undefined, events = ['contact.updated'], url = URL) => ({
  id,
  url,
  events,
  ...(enabled === undefined ? {} : { enabled }),
});

describe('subscriptionState', () => {
  it.each([
    ['delivering', [sub('a', true)], ['a'], 'delivering', true],
    ['delivering when the CRM does not say enabled', [sub('a', undefined)], ['a'], 'delivering', true],
    ['disabled by the CRM after an outage', [sub('a', false)], ['a'], 'disabled', false],
    ['missing: deleted at the CRM', [], ['a'], 'missing', false],
    ['missing: a subscription whose secret we do not hold', [sub('b', true)], ['a'], 'missing', false],
    [
      'missing: another URL',
      [sub('a', true, undefined, 'https://other/webhooks/crm')],
      ['a'],
      'missing',
      false,
    ],
    ['missing: a kind not covered', [sub('a', true, ['message.created'])], ['a'], 'missing', false],
    ['delivering beside a disabled one', [sub('a', false), sub('b', true)], ['a', 'b'], 'delivering', true],
  ])('%s', (_what, remote, held, status, delivering) => {
    const state = subscriptionState(URL, ['contact.updated'], remote, new Set(held), now);
    expect(state).toEqual(expect.objectContaining({ status, delivering }));
  });

  it('needs nothing when no CRM event kind is needed', () => {
    expect(subscriptionState(URL, [], [], new Set(), now).status).toBe('not_needed');
    expect(subscriptionState(undefined, ['contact.updated'], [], new Set(), now).status).toBe('not_needed');
  });
});
