import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An event's decision on its rules that did not match, by reference (issue 35 goal 1): its rule set
 * and commit were a jsonb object on every row (`{"set", "commit", "rules"}`, about 85 bytes); they
 * are now one row of `rule_set_refs`, which the row names by an 8-byte id (`unmatched_set`), with
 * the number of rules that listened (`unmatched_rules`). The id is a hash of the set and commit
 * (`rule_set_ref`), so a writer needs no look-up: the claim inserts the reference row in the same
 * statement, ON CONFLICT DO NOTHING (src/persistence/ledger/rule-set-refs.repository.ts).
 *
 * Rows written before keep their jsonb (nothing is rewritten); `inbox_decision` reads either form
 * as the same jsonb object, and every reader goes through it. down() folds the references back
 * into the jsonb: nothing is lost either way.
 */
export class InboxEventsDecisionByReference1796020000000 implements MigrationInterface {
  name = 'InboxEventsDecisionByReference1796020000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE rule_set_refs (id bigint NOT NULL, rule_set_version text NOT NULL, rules_commit text NOT NULL,
         CONSTRAINT "PK_rule_set_refs" PRIMARY KEY (id))`,
    );
    // Metadata only, on the parent and every partition: no row is rewritten.
    await queryRunner.query(
      `ALTER TABLE inbox_events ADD COLUMN unmatched_set bigint, ADD COLUMN unmatched_rules integer`,
    );
    // The reference of a decision object ({"set", "commit"?, "rules"}); NULL for anything else.
    await queryRunner.query(
      `CREATE FUNCTION rule_set_ref(decision jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
         SELECT CASE WHEN jsonb_typeof(decision) = 'object'
                     THEN hashtextextended((decision->>'set') || E'\\n' || coalesce(decision->>'commit', ''), 0) END
       $$`,
    );
    // The decision as one jsonb object, whichever form the row keeps it in (NULL: none).
    await queryRunner.query(
      `CREATE FUNCTION inbox_decision(unmatched jsonb, set_ref bigint, rules integer) RETURNS jsonb
         LANGUAGE sql STABLE PARALLEL SAFE AS $$
         SELECT CASE WHEN rules IS NULL THEN unmatched ELSE
           (SELECT jsonb_build_object('set', r.rule_set_version, 'rules', rules)
                   || CASE WHEN r.rules_commit <> '' THEN jsonb_build_object('commit', r.rules_commit) ELSE '{}'::jsonb END
              FROM rule_set_refs r WHERE r.id = set_ref) END
       $$`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE inbox_events SET unmatched = inbox_decision(unmatched, unmatched_set, unmatched_rules)
        WHERE unmatched_rules IS NOT NULL`,
    );
    await queryRunner.query(`DROP FUNCTION inbox_decision(jsonb, bigint, integer)`);
    await queryRunner.query(`DROP FUNCTION rule_set_ref(jsonb)`);
    await queryRunner.query(
      `ALTER TABLE inbox_events DROP COLUMN unmatched_set, DROP COLUMN unmatched_rules`,
    );
    await queryRunner.query(`DROP TABLE rule_set_refs`);
  }
}
