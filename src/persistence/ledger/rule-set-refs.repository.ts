// Every statement on `rule_set_refs`: the rows an inbox row's decision names (migration
// 1796020000000). They are written only as part of a claim, so this file holds SQL to chain, not
// a class: a claim that stores decisions by reference makes sure, in the same statement, that each
// reference has its row.

/**
 * A data-modifying CTE body: the reference row of every decision object in `decisions` (a jsonb
 * parameter: id → decision or null). Its id is `rule_set_ref(decision)`, the value the claim
 * stores, so a row already there (the usual case) is left as it is.
 */
export function insertRuleSetRefsSql(decisions: string): string {
  return `INSERT INTO rule_set_refs (id, rule_set_version, rules_commit)
          SELECT DISTINCT rule_set_ref(d), d->>'set', coalesce(d->>'commit', '')
            FROM jsonb_each(${decisions}::jsonb) AS e(id, d) WHERE jsonb_typeof(d) = 'object'
          ON CONFLICT (id) DO NOTHING`;
}
