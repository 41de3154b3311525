/**
 * Raw parameterised SQL, on the database or inside a transaction: the one query type repositories
 * take. Both `Database` and `Tx` have a `query` of this shape; `queryOf` binds either.
 */
export type Query = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

/** What both the database (`Database`) and an open transaction (`Tx`) implement. */
export interface Queryable {
  query: Query;
}

/** The `Query` of a database or an open transaction. */
export function queryOf(on: Queryable): Query {
  return (text, params) => on.query(text, params);
}
