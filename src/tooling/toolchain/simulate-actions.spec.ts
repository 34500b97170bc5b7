// Forecasts and plans count CRM calls: an http-request proceeds but costs the CRM budget nothing.
import { contactFixture } from '../../pipeline/execution/contact-fixture.spec-support';
import type { ResolvedAction } from '../../language/catalogue/catalogue';
import { simulateActions } from './simulate-actions';

const http = {
  type: 'http-request',
  name: 'erp',
  method: 'POST',
  url: 'https://erp.example.com/x',
  headers: {},
  timeoutMs: 10_000,
} as ResolvedAction;
const tag = { type: 'add-tag', tagId: 'tag-new' } as ResolvedAction;
const prepared = (resolved: ResolvedAction[]) =>
  resolved.map((r) => ({ action: { type: r.type } as never, resolved: r }));

describe('simulateActions', () => {
  it.each([
    ['an http-request alone', [http], 0, ['sent']],
    ['an http-request and a tag', [http, tag], 1, ['sent', 'sent']],
    ['a tag alone', [tag], 1, ['sent']],
  ])('counts the CRM calls of %s', (_what, resolved, calls, statuses) => {
    const run = simulateActions(prepared(resolved), contactFixture());
    expect(run.calls).toBe(calls);
    expect(run.outcomes.map((o) => o.status)).toEqual(statuses);
  });
});
