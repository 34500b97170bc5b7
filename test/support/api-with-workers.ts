// An api-only engine (the harness, ROLE=api) whose workers are processes the test starts itself:
// for tests that kill a worker mid-work or move the workers' engine clock.
import { api } from './http';
import { type Harness, type HarnessOptions, startHarness } from './engine-harness';
import { ensureBuilt, WorkerProcesses } from './worker-process';

export interface ApiWithWorkers {
  /** The api harness, set once beforeAll ran. */
  readonly h: Harness;
  readonly workers: WorkerProcesses;
}

/** Registers beforeAll/afterAll for an api harness on `rules`; workers are killed before it stops. */
export function apiWithWorkers(rules: Record<string, string>, options: HarnessOptions = {}): ApiWithWorkers {
  const workers = new WorkerProcesses();
  let harness: Harness | undefined;
  beforeAll(async () => {
    ensureBuilt();
    harness = await startHarness({ ...options, rules, env: { ...options.env, ROLE: 'api' } });
  }, 120_000);
  afterAll(async () => {
    workers.killAll();
    await harness?.stop();
  });
  return {
    workers,
    get h(): Harness {
      if (!harness) throw new Error('the api harness is not started yet (use it inside a test)');
      return harness;
    },
  };
}

/** How many calls the sandbox answered on `route` (e.g. `POST /v1/messages`) so far. */
export async function sandboxCalls(h: Harness, route: string): Promise<number> {
  return (await api(h.sandboxUrl, 'GET', '/_sandbox/counters')).body[route] ?? 0;
}
