// How the gateway meets a misbehaving CRM: 429 with Retry-After, 500, timeouts, 400s.
// Faults are armed in the sandbox; arrivals are recorded where the sandbox receives them.
import { Logger } from '@nestjs/common';
import { CrmApiError } from '../../../src/language/crm-terms/crm-errors';
import { DEMO, KEYS } from '../../support/demo-fixture';
import { recordArrivals, sandboxControl, useCrmSuite } from './crm-test-kit';

jest.setTimeout(60_000);

const GET_CONTACT = 'GET /v1/contacts/:contactId';
type Counters = Record<string, number>;

describe('gateway against CRM faults (sandbox over HTTP, real Redis)', () => {
  const crm = useCrmSuite(
    'crm-faults',
    { limit: 300, windowMs: 60_000 },
    { CRM_TIMEOUT_MS: '500', CRM_MAX_RETRIES: '3' },
  );
  let recorder: ReturnType<typeof recordArrivals>;

  beforeEach(async () => {
    await sandboxControl(crm.sandbox, 'DELETE', 'faults');
    await sandboxControl(crm.sandbox, 'DELETE', 'counters');
    recorder = recordArrivals();
  });
  afterEach(() => recorder.stop());

  const counters = () => sandboxControl<Counters>(crm.sandbox, 'GET', 'counters');

  it('after a 429 with Retry-After 2, no process calls for 2 s, then all resume', async () => {
    await sandboxControl(crm.sandbox, 'POST', 'faults', {
      kind: 'rate429',
      count: 1,
      retryAfterSec: 2,
      route: GET_CONTACT,
    });
    const before = await crm.a.gateway.counters();
    const first = crm.a.gateway.getContact(DEMO.contacts.maria, { priority: 'interactive' });
    // Wait until the 429 is back and the shared pause is set (a fixed sleep raced a loaded machine).
    while ((await crm.b.gateway.budgetSnapshot()).pausedUntil === undefined) await sleep(5);
    const other = crm.b.gateway.getContact(DEMO.contacts.john, { priority: 'interactive' });
    await expect(Promise.all([first, other])).resolves.toHaveLength(2);

    const [limited, ...after] = recorder.arrivals.map((r) => r.at);
    expect(after).toHaveLength(2);
    for (const at of after) expect(at - limited).toBeGreaterThanOrEqual(2_000);
    expect((await crm.a.gateway.counters()).rateLimited429 - before.rateLimited429).toBe(1);
    expect((await crm.a.gateway.counters()).retries - before.retries).toBe(0); // the pause spent no attempt
  });

  it('retries a 500 once and returns the contact', async () => {
    await sandboxControl(crm.sandbox, 'POST', 'faults', { kind: 'error500', count: 1, route: GET_CONTACT });
    const before = await crm.a.gateway.counters();
    const contact = await crm.a.gateway.getContact(DEMO.contacts.maria, { priority: 'bulk' });
    expect(contact.id).toBe(DEMO.contacts.maria);
    expect((await counters())[GET_CONTACT]).toBe(2);
    expect((await crm.a.gateway.counters()).retries - before.retries).toBe(1);
    expect((await crm.a.gateway.counters()).calls.getContact?.server_error).toBe(
      (before.calls.getContact?.server_error ?? 0) + 1,
    );
  });

  it('retries a timed-out call', async () => {
    await sandboxControl(crm.sandbox, 'POST', 'faults', {
      kind: 'latency',
      count: 1,
      latencyMs: 1_500,
      route: GET_CONTACT,
    });
    const before = await crm.a.gateway.counters();
    await expect(crm.a.gateway.getContact(DEMO.contacts.john, { priority: 'bulk' })).resolves.toMatchObject({
      id: DEMO.contacts.john,
    });
    expect((await crm.a.gateway.counters()).calls.getContact?.transport_error).toBe(
      (before.calls.getContact?.transport_error ?? 0) + 1,
    );
    expect((await counters())[GET_CONTACT]).toBe(2);
  });

  it('never retries a 400, and records it with the CRM requestId, code and details', async () => {
    const before = await crm.a.gateway.counters();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const err = await crm.a.gateway
      .createContact(
        { phone: '+55 (11) not-a-phone', email: 'not-an-email' },
        { priority: 'interactive', correlationId: 'run-42' },
      )
      .catch((e: unknown) => e);

    expect(err).toBeInstanceOf(CrmApiError);
    const apiErr = err as CrmApiError;
    expect(apiErr).toMatchObject({
      status: 400,
      code: 'validation_failed',
      retryable: false,
      operation: 'createContact',
    });
    expect(apiErr.requestId).toMatch(/^req_/);
    expect(apiErr.details?.length).toBeGreaterThan(0);
    expect(recorder.arrivals).toHaveLength(1);
    expect((await crm.a.gateway.counters()).failures.createContact).toBe(
      (before.failures.createContact ?? 0) + 1,
    );
    const logged = warn.mock.calls.map((c) => String(c[0])).find((line) => line.includes(apiErr.requestId!));
    warn.mockRestore();
    expect(logged).toContain('createContact [run-42] failed: HTTP 400 validation_failed');
    expect(logged).not.toContain(KEYS.full);
  });

  it('keeps the API key out of errors and counters', async () => {
    const err = await crm.a.gateway
      .getContact('00000000-0000-4000-8000-00000000dead', { priority: 'interactive' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CrmApiError);
    expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain(KEYS.full);
    expect(JSON.stringify(await crm.a.gateway.counters())).not.toContain(KEYS.full);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
