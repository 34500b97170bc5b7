/**
 * TypeORM's DataSource.query() answers UPDATE and DELETE with `[rows, rowCount]` and every other
 * statement with the rows: this gives the rows of a `RETURNING` whatever the statement.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  )
    return result[0] as T[];
  return result as T[];
}

/** The row count of an UPDATE or DELETE run through query() (`[rows, rowCount]`). */
export function affectedRows(result: unknown): number {
  return Array.isArray(result) && result.length === 2 && typeof result[1] === 'number' ? result[1] : 0;
}
