// The rules loader: files -> YAML -> schema -> semantics -> set-level checks -> CompiledRuleSet.
// Every problem of every file is collected; the set is compiled only when there is no error.
import { checkCategories } from '../checks/check-categories';
import { linkPolicySegments } from '../../policy/link-policy-segments';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { CompiledRuleSet } from '../../matching/compiled-rule-set';
import type { CrmSnapshot } from '../../crm-terms/crm-snapshot';
import { checkEgressHosts, checkSecretHosts } from '../checks/check-egress-hosts';
import { checkCustomTriggers } from '../checks/check-custom-triggers';
import { checkRuleSet } from '../checks/check-rule-set';
import { isSourcesFile, parseSources } from './custom-sources';
import type { LoadedRule } from './loaded-rule';
import { normalizeRule } from './normalize-rule';
import { checkAssigneeGuarantee } from '../checks/check-assignee-guarantee';
import { isPlainObject } from './problem-collector';
import type { RuleDefinition, RuleProblem } from './rule-types';
import { collectStepLists, isStepListDoc } from './step-lists';
import { parseYamlFile, type Locator } from './yaml-source';
import { isIcsFile, isPolicyFile, loadPolicy } from '../../policy/load-policy';

export interface LoadResult {
  /** undefined when any problem is an error. */
  ruleSet?: CompiledRuleSet;
  problems: RuleProblem[];
  /** Every rule that normalised, with its YAML, also when the set is refused (for the rule graph). */
  loaded?: LoadedRule[];
  /** Ids of the disabled rules left out (LoadOptions.skipDisabled). */
  skippedDisabled?: string[];
  /** The files read (loadRulesFromDir): the engine records them as the deployed version. */
  files?: RuleFile[];
}

export interface RuleFile {
  path: string;
  text: string;
}

const YAML_RE = /\.ya?ml$/i;
const TEST_RE = /\.test\.ya?ml$/i;

/**
 * Files of the rule set: rules (*.yaml / *.yml), the messaging policy (policy.yaml) and the .ics
 * calendars it names; *.test.yaml files beside them are rule tests, never rules, and sources.yaml
 * declares custom event sources (src/language/rules/format/custom-sources.ts).
 */
export function isRuleFile(path: string): boolean {
  return (YAML_RE.test(path) && !TEST_RE.test(path) && !isSourcesFile(path)) || isIcsFile(path);
}

/** What a rule set is loaded from: its rule files, policy, calendars and sources.yaml. */
export function isRuleSetFile(path: string): boolean {
  return isRuleFile(path) || isSourcesFile(path);
}

export function isRuleTestFile(path: string): boolean {
  return TEST_RE.test(path);
}

/** A file whose real path (links followed) is outside the rules directory: refused, never read. */
export class OutsideRulesDirError extends Error {
  constructor(path: string) {
    super(`${path} links outside the rules directory: refused (its content is not read)`);
  }
}

/** True when `real` is `root` or inside it (both real paths). */
function isInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  // `..data` (a ConfigMap's folder) is a name inside; only a `..` segment climbs out.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Every YAML file under `dir` (recursively, sorted, hidden entries skipped). A link may point
 * inside `dir` (a Kubernetes ConfigMap's `a.yaml -> ..data/a.yaml`), never out of it.
 */
export async function readYamlFiles(dir: string, keep: (path: string) => boolean): Promise<RuleFile[]> {
  const root = await realpath(dir);
  const entries = (await readdir(dir, { recursive: true })) as string[];
  const paths = entries
    .filter(
      (rel) => keep(rel) && !rel.split(/[\\/]/).some((seg) => seg.startsWith('.') || seg === 'node_modules'),
    )
    .map((rel) => join(dir, rel))
    .sort();
  const files: RuleFile[] = [];
  for (const path of paths) {
    try {
      if (!isInside(root, await realpath(path))) throw new OutsideRulesDirError(path);
      if ((await stat(path)).isFile()) files.push({ path, text: await readFile(path, 'utf8') });
    } catch (err) {
      // An editor saving by rename may remove a file between readdir and read: it is not there.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return files;
}

export async function loadRulesFromDir(dir: string, opts: LoadOptions = {}): Promise<LoadResult> {
  let files: RuleFile[];
  try {
    files = await readYamlFiles(dir, isRuleSetFile);
  } catch (err) {
    const reason =
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'directory not found' : (err as Error).message;
    return cannotReadRules(dir, reason);
  }
  return { ...loadRulesFromFiles(files, opts), files };
}

/** The refused result of a directory that could not be read. */
export function cannotReadRules(dir: string, reason: string): LoadResult {
  return {
    problems: [
      { file: dir, line: 1, col: 1, severity: 'error', code: 'io', message: `cannot read rules: ${reason}` },
    ],
  };
}

export interface LoadOptions {
  /** The CRM's directory: names in rules are checked against it. */
  snapshot?: CrmSnapshot;
  /**
   * Leave `enabled: false` rules out of the set and its checks (forecast: they never sweep, so
   * their names must not block the others). Their ids still count as taken.
   */
  skipDisabled?: boolean;
  /** HTTP_ACTION_ALLOWED_HOSTS, when known: http-request URLs to other hosts are warned about. */
  allowedHosts?: readonly string[];
  /** HTTP_ACTION_SECRET_HOSTS, when known: a secret sent to a written-out host it does not name is an error. */
  secretHosts?: Readonly<Record<string, readonly string[]>>;
  /** Warn (no-assign-first) on customer messages no assignee is sure for: `crm-rules validate`. */
  assigneeAdvice?: boolean;
}

/** Pure: no I/O. Files that are not rule files (e.g. *.test.yaml) are ignored. */
export function loadRulesFromFiles(files: RuleFile[], opts: LoadOptions = {}): LoadResult {
  const problems: RuleProblem[] = [];
  const loaded: LoadedRule[] = [];
  const ids: { id: string; at: Locator }[] = [];
  const skippedDisabled: string[] = [];
  /** Disabled rules left out still name their segments (a suppression may name one). */
  const skippedDefs: RuleDefinition[] = [];
  const policy = loadPolicy(
    files.filter((f) => isPolicyFile(f.path)),
    files,
  );
  problems.push(...policy.problems);
  const docs: { value: unknown; at: Locator }[] = [];
  for (const file of files) {
    if (!isRuleFile(file.path) || isPolicyFile(file.path) || isIcsFile(file.path)) continue;
    const parsed = parseYamlFile(file.path, file.text);
    problems.push(...parsed.problems);
    for (const doc of parsed.documents)
      if (Array.isArray(doc.value))
        docs.push(...doc.value.map((value, i) => ({ value, at: doc.at.child([i]) })));
      else docs.push(doc);
  }
  // Step lists first: a rule's `call:` may name one from any file.
  const stepLists = collectStepLists(docs, problems);
  for (const { value, at } of docs) {
    if (isStepListDoc(value)) continue;
    if (isPlainObject(value) && typeof value.rule === 'string') ids.push({ id: value.rule, at });
    const def = normalizeRule(value, at, problems, policy.policy?.calendars, stepLists);
    if (def && opts.skipDisabled && !def.enabled) {
      skippedDisabled.push(def.id);
      skippedDefs.push(def);
    } else if (def) loaded.push({ def, at });
  }
  const sources = parseSources(files.filter((f) => isSourcesFile(f.path)));
  problems.push(...sources.problems);
  problems.push(...checkRuleSet(ids, loaded, opts.snapshot));
  if (opts.allowedHosts) problems.push(...checkEgressHosts(loaded, opts.allowedHosts));
  if (opts.assigneeAdvice) problems.push(...checkAssigneeGuarantee(loaded));
  if (opts.secretHosts) problems.push(...checkSecretHosts(loaded, opts.secretHosts, opts.allowedHosts));
  problems.push(...checkCustomTriggers(loaded, sources.sources));
  problems.push(...checkCategories(loaded, policy.policy));
  const linked = linkPolicySegments(policy.policy, policy.at, [...loaded.map((l) => l.def), ...skippedDefs]);
  problems.push(...linked.problems);
  const sorted = sortProblems(problems);
  const skipped = opts.skipDisabled ? { skippedDisabled } : {};
  if (sorted.some((p) => p.severity === 'error')) return { problems: sorted, loaded, ...skipped };
  return {
    ruleSet: new CompiledRuleSet(
      loaded.map((l) => l.def),
      linked.policy,
      sources.sources,
    ),
    problems: sorted,
    loaded,
    ...skipped,
  };
}

export function sortProblems(problems: RuleProblem[]): RuleProblem[] {
  const seen = new Set<string>();
  return problems
    .filter((p) => {
      const key = `${p.file}:${p.line}:${p.col}:${p.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.col - b.col));
}
