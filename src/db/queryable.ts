/**
 * What a repository needs to run SQL: the pool (DataSource), a transaction (EntityManager) or one
 * dedicated connection (QueryRunner, e.g. the one holding a contact's advisory lock).
 */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}
