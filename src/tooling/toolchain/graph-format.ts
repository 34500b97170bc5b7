// The rule graph as Mermaid (`flowchart`, renders in GitHub Markdown) or Graphviz DOT, with a
// legend. Node ids are derived from the graph's keys (stable across runs and unrelated edits).
import { MARKS, type GraphNode, type Mark, type NodeKind, type RuleGraph } from './rule-graph';

export type GraphFormat = 'mermaid' | 'dot';

const MARK_TEXT: Record<Mark, string> = {
  loop: 'in a loop (error)',
  conflict: 'adds what another rule removes',
  unreachable: 'never acts (impossible or redundant)',
  disabled: 'disabled',
  shadow: 'shadow: evaluated, writes nothing',
};

const KIND_TEXT: Record<NodeKind, string> = {
  event: 'event kind',
  schedule: 'segment schedule',
  rule: 'rule',
  action: 'action',
};

/** `rule:tag-new` -> `r_tag_new`; unique (a suffix on a clash, e.g. `a-b` and `a_b`), in node order. */
function nodeIds(graph: RuleGraph): Map<string, string> {
  const ids = new Map<string, string>();
  const used = new Set<string>();
  for (const n of graph.nodes) {
    const colon = n.key.indexOf(':');
    const rest = n.key.slice(colon + 1).replace(/[^A-Za-z0-9]+/g, '_');
    // e_, s_, r_, a_ and l_ (on-leave actions): the key's own prefix.
    const base = `${n.key[0]}_${rest}`.replace(/_+$/, '');
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    ids.set(n.key, id);
  }
  return ids;
}

export function formatGraph(graph: RuleGraph, format: GraphFormat): string {
  return format === 'dot' ? toDot(graph) : toMermaid(graph);
}

// --- Mermaid ---------------------------------------------------------------------------------

const mermaidText = (s: string) =>
  `"${s.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;')}"`;

const MERMAID_SHAPE: Record<NodeKind, (label: string) => string> = {
  event: (l) => `([${l}])`,
  schedule: (l) => `[/${l}/]`,
  rule: (l) => `[${l}]`,
  action: (l) => `(${l})`,
};

const MERMAID_STYLE: Record<Mark, string> = {
  loop: 'stroke:#dc2626,stroke-width:3px',
  conflict: 'fill:#fde68a,stroke:#b45309',
  unreachable: 'fill:#e5e7eb,stroke:#6b7280,color:#6b7280,stroke-dasharray:5 5',
  disabled: 'fill:#f3f4f6,stroke:#9ca3af,color:#9ca3af',
  shadow: 'stroke-dasharray:3 3',
};

function toMermaid(graph: RuleGraph): string {
  const ids = nodeIds(graph);
  const lines = [
    'flowchart LR',
    '  %% crm-rules graph: triggers -> rules -> actions -> the events they cause -> rules',
  ];
  for (const n of graph.nodes)
    lines.push(`  ${ids.get(n.key)}${MERMAID_SHAPE[n.kind](mermaidText(n.label))}`);
  const thick: number[] = [];
  graph.edges.forEach((e, i) => {
    const arrow =
      e.kind === 'emits'
        ? e.loop
          ? '==>'
          : '-.->'
        : e.kind === 'on-leave'
          ? '-- on leave -->'
          : e.loop
            ? '==>'
            : '-->';
    if (e.loop) thick.push(i);
    lines.push(`  ${ids.get(e.from)} ${arrow} ${ids.get(e.to)}`);
  });
  lines.push('  subgraph legend["Legend"]', '    direction TB');
  for (const kind of Object.keys(KIND_TEXT) as NodeKind[])
    lines.push(`    legend_${kind}${MERMAID_SHAPE[kind](mermaidText(KIND_TEXT[kind]))}`);
  for (const m of MARKS) lines.push(`    legend_${m}[${mermaidText(MARK_TEXT[m])}]:::${m}`);
  lines.push(
    `    legend_edges[${mermaidText('solid: triggers, does; dotted: the CRM emits; thick red: a loop')}]`,
  );
  lines.push('  end');
  for (const m of MARKS) lines.push(`  classDef ${m} ${MERMAID_STYLE[m]}`);
  for (const m of MARKS) {
    const marked = graph.nodes.filter((n) => n.marks.includes(m)).map((n) => ids.get(n.key));
    if (marked.length) lines.push(`  class ${marked.join(',')} ${m}`);
  }
  if (thick.length) lines.push(`  linkStyle ${thick.join(',')} stroke:#dc2626,stroke-width:3px`);
  return `${lines.join('\n')}\n`;
}

// --- DOT -------------------------------------------------------------------------------------

const dotText = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

const DOT_SHAPE: Record<NodeKind, string> = {
  event: 'shape=ellipse',
  schedule: 'shape=parallelogram',
  rule: 'shape=box, style="rounded"',
  action: 'shape=box',
};

function dotAttributes(kind: NodeKind, marks: readonly Mark[]): string {
  const styles = new Set<string>(kind === 'rule' ? ['rounded'] : []);
  const attrs: string[] = [DOT_SHAPE[kind].replace(/, style="rounded"/, '')];
  if (marks.includes('loop')) attrs.push('color="#dc2626"', 'penwidth=3');
  if (marks.includes('conflict')) {
    styles.add('filled');
    attrs.push('fillcolor="#fde68a"');
  }
  if (marks.includes('unreachable')) {
    styles.add('filled').add('dashed');
    attrs.push('fillcolor="#e5e7eb"', 'fontcolor="#6b7280"');
  }
  if (marks.includes('disabled')) {
    styles.add('dotted');
    attrs.push('fontcolor="#9ca3af"');
  }
  if (marks.includes('shadow')) styles.add('dashed');
  if (styles.size) attrs.push(`style="${[...styles].join(',')}"`);
  return attrs.join(', ');
}

function toDot(graph: RuleGraph): string {
  const ids = nodeIds(graph);
  const lines = [
    '// crm-rules graph: triggers -> rules -> actions -> the events they cause -> rules',
    'digraph rules {',
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=10];',
    '  edge [fontname="Helvetica", fontsize=9];',
  ];
  const nodeLine = (id: string, n: Pick<GraphNode, 'kind' | 'label' | 'marks'>) =>
    `${dotText(id)} [label=${dotText(n.label)}, ${dotAttributes(n.kind, n.marks)}];`;
  for (const n of graph.nodes) lines.push(`  ${nodeLine(ids.get(n.key)!, n)}`);
  for (const e of graph.edges) {
    const attrs = [
      ...(e.kind === 'emits' ? ['style=dashed'] : []),
      ...(e.kind === 'on-leave' ? ['label="on leave"'] : []),
      ...(e.loop ? ['color="#dc2626"', 'penwidth=3'] : []),
    ];
    lines.push(
      `  ${dotText(ids.get(e.from)!)} -> ${dotText(ids.get(e.to)!)}${attrs.length ? ` [${attrs.join(', ')}]` : ''};`,
    );
  }
  lines.push('  subgraph cluster_legend {', '    label="Legend";');
  for (const kind of Object.keys(KIND_TEXT) as NodeKind[])
    lines.push(`    ${nodeLine(`legend_${kind}`, { kind, label: KIND_TEXT[kind], marks: [] })}`);
  for (const m of MARKS)
    lines.push(`    ${nodeLine(`legend_${m}`, { kind: 'rule', label: MARK_TEXT[m], marks: [m] })}`);
  lines.push(
    `    ${dotText('legend_edges')} [label=${dotText('solid: triggers, does; dashed: the CRM emits; thick red: a loop')}, shape=plaintext];`,
    '  }',
    '}',
  );
  return `${lines.join('\n')}\n`;
}
