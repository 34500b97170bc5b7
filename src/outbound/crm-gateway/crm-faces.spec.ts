// The faces of the one gateway: CrmReads carries exactly the operations that send a GET, CrmWrites
// every operation, CrmBudgetView none; each is the gateway's own function (one budget, no copy).
// Both faces are built from one table (crm-face.ts) that names each operation once.
import { CrmBudgetView } from './crm-budget-view';
import { CRM_OPERATIONS, CrmClient, type CrmOperation } from './crm-client';
import { READ_OPERATIONS, WRITE_OPERATIONS } from './crm-face';
import type { CrmGateway } from './crm-gateway.service';
import { CrmHttp } from './crm-http';
import { CrmReads } from './crm-reads';
import { CrmWrites } from './crm-writes';

const ID = 'c0000000-0000-4000-8000-000000000001';

/** The HTTP method the client sends for each operation (the request is recorded, never sent). */
async function methodsByOperation(): Promise<Map<CrmOperation, string>> {
  const methods = new Map<CrmOperation, string>();
  const request = jest.spyOn(CrmHttp.prototype, 'request').mockImplementation(async (op, spec) => {
    methods.set(op as CrmOperation, spec.method);
    return { data: [] };
  });
  const client = new CrmClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', timeoutMs: 1 });
  for (const op of CRM_OPERATIONS) {
    const call = client[op] as (...args: unknown[]) => Promise<unknown>;
    await call.call(client, ID, ID);
  }
  request.mockRestore();
  return methods;
}

/** A stand-in gateway: one distinct function per operation, and the budget's observers. */
function fakeGateway() {
  const ops = Object.fromEntries(CRM_OPERATIONS.map((op) => [op, jest.fn()]));
  const budget = {
    metrics: { registry: {} },
    budgetSnapshot: jest.fn(async () => 'snapshot'),
    estimateWaitMs: jest.fn(async () => 42),
    counters: jest.fn(async () => 'counters'),
  };
  return { ...ops, ...budget } as unknown as CrmGateway & typeof budget;
}

describe('the faces of the CRM gateway', () => {
  const gateway = fakeGateway();
  const faces = {
    reads: new CrmReads(gateway),
    writes: new CrmWrites(gateway),
    budget: new CrmBudgetView(gateway),
  };
  let methods: Map<CrmOperation, string>;
  beforeAll(async () => {
    methods = await methodsByOperation();
  });

  it('knows the HTTP method of every operation', () => {
    expect([...methods.keys()].sort()).toEqual([...CRM_OPERATIONS].sort());
  });

  it('names every operation once in the table of faces', () => {
    const named: string[] = [...READ_OPERATIONS, ...WRITE_OPERATIONS];
    expect(named.sort()).toEqual([...CRM_OPERATIONS].sort());
  });

  it.each(CRM_OPERATIONS.map((op) => [op]))('%s: on CrmReads iff a GET, always on CrmWrites', (op) => {
    const own = (face: object) => (face as Record<string, unknown>)[op];
    expect(own(faces.reads) === gateway[op]).toBe(methods.get(op) === 'GET');
    expect(own(faces.reads) === undefined).toBe(methods.get(op) !== 'GET');
    expect(own(faces.writes)).toBe(gateway[op]);
    expect(own(faces.budget)).toBeUndefined();
  });

  it('shows the budget of the same gateway', async () => {
    expect(faces.budget.registry).toBe(gateway.metrics.registry);
    expect(await faces.budget.budgetSnapshot()).toBe('snapshot');
    expect(await faces.budget.estimateWaitMs('bulk')).toBe(42);
    expect(gateway.estimateWaitMs).toHaveBeenCalledWith('bulk');
    expect(await faces.budget.counters()).toBe('counters');
  });
});
