// Fixture: SQL text and statement calls outside a repository (test/tools/sql-boundary.e2e-spec.ts).
interface Db {
  query(sql: string, params?: unknown[]): Promise<unknown>;
  getRepository(entity: unknown): unknown;
}
declare function InjectRepository(entity: unknown): ParameterDecorator;
const CHANNEL = 'fixture';

export const selectText = 'SELECT id FROM contact_mirror WHERE id = $1';
export const insertText = `
  INSERT INTO contact_mirror (id) VALUES ($1)`;
export const cteText = `WITH prior AS (SELECT 1) SELECT * FROM prior`;
export const listenText = `LISTEN ${CHANNEL}`;
export const lowerCase = '  delete from contact_mirror';
export const run = (db: Db) => db.query(selectText);
export const entities = (db: Db) => db.getRepository(Object);
export const decorator = InjectRepository(Object);

// Not SQL: an HTTP method, prose, an action name, a WHERE fragment.
export const method = 'DELETE';
export const prose = (x: string) => `With ${x}: the member to assign`;
export const action = 'update-contact';
export const fragment = `EXISTS (SELECT 1 FROM unnest($1::text[]) AS pf(digits))`;
