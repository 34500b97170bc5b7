// Each import boundary `npm run lint` enforces is live: dependency-cruiser, run with the
// repository's own two configs on a fixture tree (boundaries-fixture: src and packages) that breaks
// every rule once, fails, naming each rule and the file that broke it; the allowed imports in that
// tree (app.module.ts → console, engine.ts → sandbox, sandbox → contract, a type-only import of a
// Nest class, execution → the CRM's write face, matching → a ledger row type, an admission type or an
// execution type, the events worker → every stage, the sweeps → admission and execution, the schema
// wiring → an owner's entity) pass.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(__dirname, 'boundaries-fixture');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

/**
 * Runs dependency-cruiser on the fixture's src with one config, as `npm run lint` does (its text
 * output, its exit code): the [rule, file] pairs of the `error <rule>: <file> → ...` lines.
 */
function cruise(config: string, trees = ['src']): { status: number | null; violations: [string, string][] } {
  const run = spawnSync(process.execPath, [DEPCRUISE, ...trees, '--config', join(ROOT, config)], {
    cwd: FIXTURE,
    encoding: 'utf8',
  });
  const violations = [...run.stdout.matchAll(/^\s*error ([a-z-]+): (\S+) →/gm)]
    .map((m): [string, string] => [m[1], m[2]])
    .sort();
  return { status: run.status, violations };
}

describe('import boundaries (npm run lint)', () => {
  it('runs both configs from npm run lint', () => {
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(scripts.lint).toContain('npm run --silent lint:boundaries');
    expect(scripts['lint:boundaries']).toContain(
      'depcruise src packages/*/src --config .dependency-cruiser.cjs',
    );
    expect(scripts['lint:boundaries']).toContain('--config .dependency-cruiser-runtime.cjs');
  });

  it('resolves the packages by name to their sources, where the rules look for them', () => {
    const files = ['src/engine.ts', 'src/language/crm-terms/crm-errors.ts'];
    const run = spawnSync(
      process.execPath,
      [DEPCRUISE, ...files, '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    expect(run.status).toBe(0);
    type Cruise = { modules: { dependencies: { module: string; resolved: string }[] }[] };
    const deps = (JSON.parse(run.stdout) as Cruise).modules.flatMap((m) => m.dependencies);
    const resolved = new Map(deps.map((d) => [d.module, d.resolved]));
    expect(resolved.get('@crm-rules/crm-sandbox')).toBe('packages/crm-sandbox/src/index.ts');
    expect(resolved.get('@crm-rules/crm-contract')).toBe('packages/crm-contract/src/index.ts');
  });

  it('fails on every import rule, naming it and the file that broke it', () => {
    const { status, violations } = cruise('.dependency-cruiser.cjs', [
      'src',
      'packages/crm-contract/src',
      'packages/crm-sandbox/src',
    ]);
    expect(status).not.toBe(0);
    expect(violations).toEqual(
      [
        ['cli-imports-no-nest', 'src/tooling/cli/command.ts'],
        ['console-is-a-leaf', 'src/pipeline/intake/intake.ts'],
        ['contract-package-imports-nothing', 'packages/crm-contract/src/contact.ts'],
        ['core-imports-no-framework', 'src/language/rules/rule-service.ts'],
        ['core-imports-only-core-and-contract', 'src/language/matching/matcher.ts'],
        ['core-names-services-by-type-only', 'src/language/rules/run-gateway.ts'],
        ['crm-contract-is-a-leaf', 'src/language/crm-terms/types.ts'],
        ['crm-writes-only-from-execution', 'src/language/rules/run-gateway.ts'],
        ['crm-writes-only-from-execution', 'src/pipeline/matching/find-contact.ts'],
        ['gateway-only-from-its-callers', 'src/persistence/schema/entities.ts'],
        ['gateway-only-from-its-callers', 'src/language/rules/run-gateway.ts'],
        ['gateway-only-through-its-faces', 'src/persistence/schema/entities.ts'],
        ['gateway-only-through-its-faces', 'src/operator/ops/budget.ts'],
        ['matching-never-writes', 'src/pipeline/matching/dispatch-runs.ts'],
        ['matching-never-writes', 'src/pipeline/matching/end-event.ts'],
        ['matching-never-writes', 'src/pipeline/matching/end-waits.ts'],
        ['matching-never-writes', 'src/pipeline/matching/enqueue-runs.ts'],
        ['matching-never-writes', 'src/pipeline/matching/find-contact.ts'],
        ['matching-never-writes', 'src/pipeline/matching/update-mirror.ts'],
        ['net-is-a-leaf', 'src/language/net/allow-list.ts'],
        ['only-admission-creates-runs', 'src/pipeline/segments/sweep.ts'],
        ['persistence-is-below', 'src/persistence/ledger/inbox-events.repository.ts'],
        ['persistence-is-below', 'src/persistence/retention/retention-pruners.ts'],
        ['persistence-is-below', 'src/persistence/schema/entities.ts'],
        ['pipeline-flows-downstream', 'src/pipeline/execution/runner.ts'],
        ['pipeline-flows-downstream', 'src/pipeline/intake/hand-over.ts'],
        ['pipeline-flows-downstream', 'src/pipeline/intake/sweep-now.ts'],
        ['pipeline-flows-downstream', 'src/pipeline/segments/match-members.ts'],
        ['sandbox-imports-only-the-contract', 'packages/crm-sandbox/src/emulator.ts'],
        ['sandbox-only-from-engine-boot', 'src/operator/ops/health.ts'],
        ['segment-sql-only-in-repositories', 'src/pipeline/segments/plan-where.ts'],
      ].sort(),
    );
  });

  it('fails on every run-time reach rule, through other folders, and not on a type-only import', () => {
    const { status, violations } = cruise('.dependency-cruiser-runtime.cjs');
    expect(status).not.toBe(0);
    expect(violations).toEqual(
      [
        ['cli-loads-no-nest', 'src/tooling/cli/command.ts'],
        ['cli-loads-no-nest', 'src/tooling/cli/explain.command.ts'],
        ['core-loads-no-framework', 'src/language/matching/matcher.ts'],
        ['core-loads-no-framework', 'src/language/rules/rule-service.ts'],
        ['core-loads-no-framework', 'src/language/rules/run-gateway.ts'],
      ].sort(),
    );
  });

  it('fails on a folder cycle outside the core, naming its folders (folder-cycles.js --check)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'folder-cycles.js'), '--check', FIXTURE], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('2 folders: pipeline/execution, pipeline/matching');
    expect(run.stderr).toContain('folder cycle outside the core');
  });

  it('passes folder-cycles.js --check on the repository (only the core keeps cycles)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'folder-cycles.js'), '--check'], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
