/**
 * What a repository needs to run SQL: the pool (DataSource), a transaction (EntityManager) or one
 * dedicated connection (QueryRunner).
 */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * A Queryable that can also open a transaction (the pool or an EntityManager): for statements that
 * need their own settings, e.g. a synchronous commit, without a connection held between calls.
 */
export interface Transactional extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
}
