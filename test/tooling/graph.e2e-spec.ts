// `crm-rules graph` through the CLI: valid Mermaid (`flowchart`) and DOT for the repository's rules,
// checked by a small grammar of the statements the renderer may write (no Mermaid/DOT parser is a
// dependency), marks on a broken set, deterministic output.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli';

const ID = '[A-Za-z][A-Za-z0-9_]*';
const LABEL = '"[^"]*"';

/** The statements of a Mermaid flowchart; returns what it found, throws on a line it does not know. */
function parseMermaid(text: string) {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toBe('flowchart LR');
  const nodes = new Map<string, string>();
  const edges: [string, string][] = [];
  const classDefs = new Set<string>();
  const classes = new Map<string, string[]>();
  let depth = 0;
  const linkStyles: number[] = [];
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    let m: RegExpMatchArray | null;
    if (line.startsWith('%%')) continue;
    if (
      (m = line.match(
        new RegExp(
          `^(${ID})(\\(\\[${LABEL}\\]\\)|\\[/${LABEL}/\\]|\\[${LABEL}\\]|\\(${LABEL}\\))(:::([a-z]+))?$`,
        ),
      ))
    ) {
      expect(nodes.has(m[1])).toBe(false);
      nodes.set(m[1], m[2]);
      if (m[4]) classes.set(m[4], [...(classes.get(m[4]) ?? []), m[1]]);
    } else if ((m = line.match(new RegExp(`^(${ID}) (-->|==>|-\\.->|-- [a-z ]+ -->) (${ID})$`))))
      edges.push([m[1], m[3]]);
    else if ((m = line.match(new RegExp(`^subgraph ${ID}\\[${LABEL}\\]$`)))) depth++;
    else if (line === 'end') depth--;
    else if (/^direction (TB|LR)$/.test(line)) continue;
    else if ((m = line.match(/^classDef ([a-z]+) [a-z-]+:[^,]+(,[a-z-]+:[^,]+)*$/))) classDefs.add(m[1]);
    else if ((m = line.match(new RegExp(`^class (${ID}(,${ID})*) ([a-z]+)$`))))
      classes.set(m[3], [...(classes.get(m[3]) ?? []), ...m[1].split(',')]);
    else if ((m = line.match(/^linkStyle (\d+(,\d+)*) [a-z-]+:[^\s]+$/)))
      linkStyles.push(...m[1].split(',').map(Number));
    else throw new Error(`not a flowchart statement: ${line}`);
  }
  expect(depth).toBe(0);
  for (const [from, to] of edges) expect([nodes.has(from), nodes.has(to)]).toEqual([true, true]);
  for (const [cls, ids] of classes) {
    expect(classDefs).toContain(cls);
    for (const id of ids) expect(nodes.has(id)).toBe(true);
  }
  for (const i of linkStyles) expect(i).toBeLessThan(edges.length);
  return { nodes, edges, classes, linkStyles };
}

const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
const ATTRS = `\\[([a-z]+=(?:${QUOTED}|[A-Za-z0-9_.]+))(, [a-z]+=(?:${QUOTED}|[A-Za-z0-9_.]+))*\\]`;

/** The statements of a DOT digraph, as the renderer writes them. */
function parseDot(text: string) {
  const lines = text.trimEnd().split('\n');
  const nodes = new Set<string>();
  const edges: [string, string][] = [];
  let depth = 0;
  for (const raw of lines) {
    const line = raw.trim();
    let m: RegExpMatchArray | null;
    if (line.startsWith('//')) continue;
    if (line === 'digraph rules {' || /^subgraph cluster_[a-z]+ \{$/.test(line)) depth++;
    else if (line === '}') depth--;
    else if (/^[a-z]+=(?:"(?:[^"\\]|\\.)*"|[A-Za-z0-9]+);$/.test(line)) continue;
    else if (new RegExp(`^(node|edge) ${ATTRS};$`).test(line)) continue;
    else if ((m = line.match(new RegExp(`^(${QUOTED}) -> (${QUOTED})( ${ATTRS})?;$`))))
      edges.push([m[1], m[2]]);
    else if ((m = line.match(new RegExp(`^(${QUOTED}) ${ATTRS};$`)))) {
      expect(nodes.has(m[1])).toBe(false);
      nodes.add(m[1]);
    } else throw new Error(`not a DOT statement: ${line}`);
    expect(depth).toBeGreaterThanOrEqual(0);
  }
  expect(depth).toBe(0);
  for (const [from, to] of edges) expect([nodes.has(from), nodes.has(to)]).toEqual([true, true]);
  return { nodes, edges };
}

describe('crm-rules graph', () => {
  it('draws the repository rules as a valid Mermaid flowchart, every rule in it', async () => {
    // rules/ and the recipes, as a team that copied every recipe would have them.
    const { code, out } = await cli('graph', 'rules', 'recipes');
    expect(code).toBe(0);
    const { nodes, edges } = parseMermaid(out);
    const rules = [...nodes.keys()].filter((id) => id.startsWith('r_'));
    expect(rules).toHaveLength(28);
    expect(nodes.get('r_tag_ad_leads')).toBe('["tag-ad-leads (priority 10)"]');
    expect(edges).toContainEqual(['e_contact_created', 'r_tag_ad_leads']);
    expect(edges).toContainEqual(['r_tag_ad_leads', 'a_tag_ad_leads_0']);
    expect(edges).toContainEqual(['a_tag_ad_leads_0', 'e_contact_updated']);
    expect(edges).toContainEqual(['s_dormant_contacts', 'r_dormant_contacts']);
    expect(edges).toContainEqual(['r_dormant_contacts', 'l_dormant_contacts_0']);
  });

  it('draws the same rules as valid DOT with the same nodes and edges', async () => {
    const mermaid = parseMermaid((await cli('graph', 'rules')).out);
    const { code, out } = await cli('graph', 'rules', '--format', 'dot');
    expect(code).toBe(0);
    const dot = parseDot(out);
    const legend = (id: string) => id.startsWith('legend');
    expect([...dot.nodes].map((n) => n.slice(1, -1)).filter((n) => !legend(n))).toEqual(
      [...mermaid.nodes.keys()].filter((n) => !legend(n)),
    );
    expect(dot.edges.map(([a, b]) => [a.slice(1, -1), b.slice(1, -1)])).toEqual(mermaid.edges);
  });

  it('is deterministic, and writes to a file with --output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crm-rules-graph-'));
    try {
      const first = await cli('graph', 'rules', '--format', 'dot');
      const file = join(dir, 'rules.dot');
      const written = await cli('graph', 'rules', '--format', 'dot', '--output', file);
      expect(written.code).toBe(0);
      expect(written.out).toBe('');
      expect(readFileSync(file, 'utf8')).toBe(first.out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws a set with a loop and a conflict, marked, and says the set has errors', async () => {
    const loop = await cli('graph', 'test/language/rules/broken/loop');
    expect(loop.code).toBe(0);
    expect(loop.err).toMatch(/warning: the rule set has 2 error\(s\); run crm-rules validate/);
    const { classes, linkStyles } = parseMermaid(loop.out);
    expect(classes.get('loop')).toEqual(
      expect.arrayContaining(['r_echo', 'r_tag_unqualified', 'r_untag_reviewed', 'a_echo_2']),
    );
    expect(classes.get('loop')).not.toContain('r_answer_inbound');
    // echo loops on its [else] path only: the [then] arm's message does not.
    expect(classes.get('loop')).not.toContain('a_echo_1');
    expect(linkStyles.length).toBeGreaterThan(0);
    const conflict = parseMermaid((await cli('graph', 'test/language/rules/broken/conflict')).out);
    expect(conflict.classes.get('conflict')).toEqual(
      expect.arrayContaining(['r_tag_vip_ad_leads', 'r_untag_vip']),
    );
    expect(conflict.classes.get('conflict')).not.toContain('r_tag_hot');
  });

  it('marks unreachable rules and tag fights', async () => {
    const unreachable = parseMermaid(
      (await cli('graph', 'test/language/rules/broken/impossible-condition')).out,
    );
    expect(unreachable.classes.get('unreachable')!.filter((id) => !id.startsWith('legend_'))).toEqual([
      'r_active_and_archived',
      'r_every_branch_impossible',
      'r_in_nothing',
      'r_no_number_fits',
      'r_tagged_and_not',
    ]);
    const fights = parseMermaid(
      (await cli('graph', 'test/language/rules/broken/tag-fight', '--format', 'mermaid')).out,
    );
    expect(fights.classes.get('conflict')).toEqual(
      expect.arrayContaining(['r_mark_dormant', 'r_wake_on_message', 'r_vip_on_create', 'r_unvip_on_update']),
    );
  });

  it('matches the rendered example of docs/TOOLCHAIN.md', async () => {
    const doc = readFileSync('docs/TOOLCHAIN.md', 'utf8');
    const section = doc.slice(doc.indexOf('## graph'));
    const yaml = section.match(/```yaml\n([\s\S]*?)```/)![1];
    const mermaid = section.match(/```mermaid\n([\s\S]*?)```/)![1];
    const dir = mkdtempSync(join(tmpdir(), 'crm-rules-graph-doc-'));
    try {
      mkdirSync(join(dir, 'rules'));
      writeFileSync(join(dir, 'rules', 'example.yaml'), yaml);
      const { out } = await cli('graph', join(dir, 'rules'));
      expect(out).toBe(mermaid);
      parseMermaid(mermaid);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 1 when there are no rules to draw', async () => {
    const { code, err } = await cli('graph', 'no/such/dir');
    expect(code).toBe(1);
    expect(err).toMatch(/cannot read rules/);
  });
});
