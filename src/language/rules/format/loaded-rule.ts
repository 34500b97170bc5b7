// A rule as the set-level checks see it: its definition and where its YAML is.
import type { RuleDefinition, SourcePosition } from './rule-types';
import type { Locator } from './yaml-source';

export interface LoadedRule {
  def: RuleDefinition;
  at: Locator;
}

export const where = (p: SourcePosition) => `${p.file}:${p.line}:${p.col}`;

export const eventsOf = (def: RuleDefinition) => (def.trigger.kind === 'event' ? def.trigger.events : []);
