// The live rule set: start-up load, reloads (kept when broken, serialised when concurrent) and
// the compiled plan a rule hands the action runner. Real files in a temporary directory.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as loadRules from '../../language/rules/format/load-rules';
import type { RuleSetService } from './rule-set.service';
import { ruleSetInTempDir } from './rule-set.spec-support';

// The loader itself, wrapped so a test can hold one load back (the order of concurrent reloads).
jest.mock('../../language/rules/format/load-rules', () => {
  const actual = jest.requireActual<typeof import('../../language/rules/format/load-rules')>(
    '../../language/rules/format/load-rules',
  );
  return { ...actual, loadRulesFromDir: jest.fn(actual.loadRulesFromDir) };
});
const loadSpy = loadRules.loadRulesFromDir as jest.MockedFunction<typeof loadRules.loadRulesFromDir>;
const actualLoad = jest.requireActual<typeof import('../../language/rules/format/load-rules')>(
  '../../language/rules/format/load-rules',
).loadRulesFromDir;

const GOOD = 'rule: a\non: contact.created\ndo: [{ add-tag: a }]\n';
const OTHER = 'rule: a\non: contact.created\ndo: [{ add-tag: b }]\n';
const THIRD = 'rule: a\non: contact.created\ndo: [{ add-tag: c }]\n';
const BROKEN = 'rule: a\non: contact.creatd\ndo: [{ add-tag: a }]\n';

describe('RuleSetService', () => {
  let dir: string;
  let service: RuleSetService;
  const write = (text: string) => writeFileSync(join(dir, 'a.yaml'), text);

  let cleanUp: () => void;

  beforeEach(() => {
    ({ dir, service, cleanUp } = ruleSetInTempDir());
  });
  afterEach(() => cleanUp());

  it('refuses to start on a broken set, listing every problem as file:line:col', async () => {
    write(BROKEN);
    await expect(service.onModuleInit()).rejects.toThrow(
      `${join(dir, 'a.yaml')}:2:5: error: unknown event kind "contact.creatd"`,
    );
    expect(service.current()).toBeUndefined();
  });

  it('hands a caller that asks before the start-up load the set once it is loaded', async () => {
    write(GOOD);
    // A worker's queue may deliver a job before this module's onModuleInit has run.
    const early = service.loaded();
    await service.onModuleInit();
    const set = service.current()!;
    await expect(early).resolves.toBe(set);
    await expect(service.loaded()).resolves.toBe(set);
  });

  it('keeps the last good set when a reload fails, and exposes the problems', async () => {
    write(GOOD);
    await service.onModuleInit();
    const good = service.current()!;
    const changes: string[] = [];
    service.onChange((set) => changes.push(set.version));

    write(BROKEN);
    const result = await service.reload('test');
    expect(result).toEqual({
      ok: false,
      version: good.version,
      problems: [expect.objectContaining({ code: 'unknown-event', line: 2 })],
    });
    expect(service.current()).toBe(good);
    expect(service.problems()).toEqual(result.problems);
    expect(service.status()).toEqual({
      version: good.version,
      source: 'directory',
      loadedAt: expect.any(String),
      ruleCount: 1,
      lastAttempt: { at: expect.any(String), ok: false, reason: 'test', problems: result.problems },
    });
    expect(changes).toEqual([]);
  });

  it('swaps in a new set that validates and tells the listeners, once per new version', async () => {
    write(GOOD);
    await service.onModuleInit();
    const first = service.current()!;
    const changes: string[] = [];
    const off = service.onChange((set) => changes.push(set.version));

    await service.reload('same content');
    write(OTHER);
    const result = await service.reload('edited');
    expect(result.ok).toBe(true);
    expect(service.current()!.version).toBe(result.version);
    expect(service.current()).not.toBe(first);
    expect(changes).toEqual([result.version]);

    off();
    write(GOOD);
    await service.reload('back');
    expect(changes).toEqual([result.version]);
  });

  it('applies concurrent reloads in order, so the newest content wins', async () => {
    write(GOOD);
    await service.onModuleInit();
    loadSpy.mockClear();
    const versions: string[] = [];
    service.onChange((set) => versions.push(set.version));
    // The first reload reads OTHER, then is held back until the second reload has been asked for
    // and the file says THIRD: run concurrently, the first would finish last and install OTHER.
    let readFirst!: () => void;
    const firstRead = new Promise<void>((resolve) => (readFirst = resolve));
    let releaseFirst!: () => void;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    loadSpy.mockImplementationOnce(async (dir: string) => {
      const result = await actualLoad(dir);
      readFirst();
      await held;
      return result;
    });
    write(OTHER);
    const first = service.reload('1');
    await firstRead;
    write(THIRD);
    const second = service.reload('2');
    await new Promise((resolve) => setImmediate(resolve));
    expect(loadSpy).toHaveBeenCalledTimes(1); // the second waits its turn
    releaseFirst();
    const [a, b] = await Promise.all([first, second]);
    expect(loadSpy).toHaveBeenCalledTimes(2);
    expect(a.version).not.toBe(b.version);
    expect(versions).toEqual([a.version, b.version]);
    expect(service.current()!.version).toBe(b.version);
    expect(service.current()!.rule('a')!.actions).toEqual([{ type: 'add-tag', tag: 'c' }]);
  });

  it("compiles a live rule's wait, window and limit into the plan the action runner reads", async () => {
    write(
      'rule: a\non: contact.created\nlimit: { max: 5, per: 1h }\n' +
        "window: { hours: '09:00-18:00', timezone: UTC }\ndo:\n  - wait: 10m\n  - add-tag: a\n",
    );
    await service.onModuleInit();
    const rule = service.current()!.rule('a')!;
    expect(rule.mode).toBe('live');
    expect(rule.limit).toEqual({ max: 5, perMs: 3_600_000, over: 'queue' });
    expect(rule.waits).toEqual([{ beforeAction: 0, ms: 600_000 }]);
    expect(rule.window).toEqual(expect.objectContaining({ from: 540, to: 1080 }));
  });
});
