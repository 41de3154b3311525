/**
 * Puts a used test database back as its template had it, on either engine, so the test harness can
 * lend it again instead of making a new one (pglite-template.ts, pg-server.ts): the tables that hold
 * rows are emptied, the template's own rows put back, every sequence set back, and a database whose
 * schema a test changed is refused (its catalogue fingerprint differs), to be closed or dropped.
 */

/** One connection to the database (a PGlite instance, or one PostgreSQL client). */
export interface ResetConnection {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Baseline {
  /** The catalogue's fingerprint: a returned database must have the same one. */
  signature: string;
  /** Names the tables that hold rows (one statement over every table). */
  nonEmptySql: string;
  /** The template's own rows (pg-boss's version and queues, the migrations' records and seeds). */
  rows: { table: string; columns: string; json: string }[];
  /** Sets every sequence back to the template's value. */
  sequencesSql: string;
}

// DDL adds or changes rows of these catalogues: a changed fingerprint means a changed schema.
const SIGNATURE_SQL = `select concat_ws(',',
  (select count(*) || ':' || max(oid::int8) from pg_class),
  (select count(*) || ':' || coalesce(sum(hashtext(attrelid::text || attname || atttypid::text
      || attnotnull::text || attisdropped::text)), 0) from pg_attribute),
  (select count(*) || ':' || coalesce(sum(hashtext(adrelid::text || adnum::text || adbin::text)), 0) from pg_attrdef),
  (select count(*) || ':' || coalesce(sum(hashtext(seqrelid::text || seqincrement::text || seqmin::text
      || seqmax::text || seqcycle::text)), 0) from pg_sequence),
  (select count(*) || ':' || max(oid::int8) from pg_proc),
  (select count(*) from pg_type), (select count(*) from pg_trigger), (select count(*) from pg_constraint),
  (select count(*) from pg_index), (select count(*) from pg_namespace), (select count(*) from pg_extension),
  (select count(*) from pg_rewrite), (select count(*) from pg_policy),
  (select count(*) from pg_db_role_setting)) as signature`;

// Partitions are left out: their rows are read, emptied and written through their parent.
const USER_TABLES_SQL = `select format('%I.%I', n.nspname, c.relname) as name,
    (select string_agg(format('%I', a.attname), ', ' order by a.attnum) from pg_attribute a
      where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and not c.relispartition
    and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%'
    and n.nspname not like 'pg_temp%'
  order by 1`;

async function signatureOf(conn: ResetConnection): Promise<string> {
  const [row] = await conn.query<{ signature: string }>(SIGNATURE_SQL);
  return (row as { signature: string }).signature;
}

async function nonEmptyTables(conn: ResetConnection, sql: string): Promise<string[]> {
  const [row] = await conn.query<{ tables: string[] }>(sql);
  return (row as { tables: string[] }).tables;
}

/** Reads what a reset puts back, from a database as the template has it (not yet used). */
export async function readBaseline(conn: ResetConnection): Promise<Baseline> {
  const signature = await signatureOf(conn);
  const tables = await conn.query<{ name: string; columns: string }>(USER_TABLES_SQL);
  const nonEmptySql = `select array_remove(array[${tables
    .map((t) => `case when exists (select from ${t.name}) then '${t.name}' end`)
    .join(", ")}]::text[], null) as tables`;
  const nonEmpty = await nonEmptyTables(conn, nonEmptySql);
  const rows: Baseline["rows"] = [];
  for (const t of tables.filter((t) => nonEmpty.includes(t.name))) {
    const [r] = await conn.query<{ json: string }>(
      `select coalesce(json_agg(t), '[]')::text as json from ${t.name} t`,
    );
    rows.push({ table: t.name, columns: t.columns, json: (r as { json: string }).json });
  }
  const [seqs] = await conn.query<{ sql: string | null }>(
    `select string_agg(format('select setval(%L, %s, %L);', format('%I.%I', schemaname, sequencename),
        coalesce(last_value, start_value), last_value is not null), ' ') as sql from pg_sequences`,
  );
  return { signature, nonEmptySql, rows, sequencesSql: seqs?.sql ?? "" };
}

/**
 * Empties what a test wrote and puts the template's rows and sequences back; false (nothing changed)
 * when the schema is not the template's. The connection must be a fresh session or one whose session
 * state the caller discarded.
 */
export async function resetToBaseline(conn: ResetConnection, base: Baseline): Promise<boolean> {
  if ((await signatureOf(conn)) !== base.signature) return false;
  const dirty = new Set([
    ...(await nonEmptyTables(conn, base.nonEmptySql)),
    ...base.rows.map((r) => r.table),
  ]);
  await conn.exec("BEGIN");
  try {
    // Foreign keys and triggers aside (replica role): every table that holds a row is emptied, and the
    // template's rows held them. DELETE, not TRUNCATE: a TRUNCATE makes new files for each table and
    // index (pg-boss's job table has a partition per queue) and the server syncs them at commit, about
    // 0.35 s a reset on PostgreSQL; these tables hold a few rows each.
    await conn.exec("SET LOCAL session_replication_role = replica");
    if (dirty.size) await conn.exec([...dirty].map((t) => `DELETE FROM ${t};`).join(" "));
    for (const r of base.rows) {
      await conn.query(
        `INSERT INTO ${r.table} (${r.columns}) OVERRIDING SYSTEM VALUE
           SELECT ${r.columns} FROM json_populate_recordset(null::${r.table}, $1::json)`,
        [r.json],
      );
    }
    if (base.sequencesSql) await conn.exec(base.sequencesSql);
    await conn.exec("COMMIT");
  } catch (err) {
    await conn.exec("ROLLBACK").catch(() => {});
    throw err;
  }
  return true;
}
