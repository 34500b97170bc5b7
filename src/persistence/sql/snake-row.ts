// A table's row as a select of every column returns it, derived from its TypeORM entity: the
// entity stays the one row type of its table, and the snake_case shape repositories read is
// computed from it (isBlocked → is_blocked), never written out again. Projections are Pick<> of
// it. Types only.

/** `isBlocked` → `is_blocked`, `lastInteractionAt` → `last_interaction_at`. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** The entity's columns under their snake_case names, with the entity's types. */
export type SnakeRow<Entity> = {
  [K in keyof Entity as K extends string ? SnakeCase<K> : never]: Entity[K];
};
