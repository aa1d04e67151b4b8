/**
 * The dialect-free shape of a migrated database (tables, columns, nullability, normalised defaults,
 * primary keys, indexes, foreign keys), read from SQLite's pragmas or Postgres's catalogs, and a
 * comparison that names every difference. The schema-parity test proves both dialects agree.
 */
import type Database from "better-sqlite3";
import type pg from "pg";

/** One column: what both dialects can express alike. */
export interface ColumnShape {
  notNull: boolean;
  /** The default, normalised: `now`, `true`, `false`, a literal, or null for none. */
  default: string | null;
  /** The database assigns it (SQLite AUTOINCREMENT, a Postgres identity or serial). */
  generated: boolean;
}

/** An index other than the primary key's. A unique constraint counts as its unique index. */
export interface IndexShape {
  columns: string[];
  unique: boolean;
}

/** A foreign key, with its actions in upper case (`CASCADE`, `SET NULL`, `NO ACTION`, …). */
export interface ForeignKeyShape {
  columns: string[];
  table: string;
  references: string[];
  onDelete: string;
  onUpdate: string;
}

/** One table. */
export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  indexes: Record<string, IndexShape>;
  foreignKeys: ForeignKeyShape[];
}

/** Every application table by name (migration bookkeeping left out). */
export type SchemaShape = Record<string, TableShape>;

/**
 * A column default in one spelling for both dialects: SQLite's millisecond clock and Postgres's now()
 * are both "now"; booleans are true/false (SQLite may say 1/0); Postgres's `::type` casts go.
 */
export function normaliseDefault(raw: string | null): string | null {
  if (raw === null) return null;
  let value = raw.trim();
  while (value.startsWith("(") && value.endsWith(")")) value = value.slice(1, -1).trim();
  value = value.replace(/::[a-z ]+(\([\d, ]+\))?$/i, "");
  const lower = value.toLowerCase();
  if (lower === "unixepoch('subsec') * 1000" || lower === "now()" || lower === "current_timestamp") return "now";
  if (lower === "true" || lower === "false") return lower;
  return value;
}

const TOOL_TABLES = new Set(["__drizzle_migrations", "sqlite_sequence"]);

/** The shape of a SQLite database. */
export function sqliteShape(db: Database.Database): SchemaShape {
  const shape: SchemaShape = {};
  const tables = db.prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'").all() as {
    name: string;
    sql: string;
  }[];
  for (const { name, sql } of tables) {
    if (TOOL_TABLES.has(name)) continue;
    const info = db.pragma(`table_info(${JSON.stringify(name)})`) as {
      name: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[];
    const primaryKey = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    const autoIncrement = /\bAUTOINCREMENT\b/i.test(sql);
    const columns: Record<string, ColumnShape> = {};
    for (const c of info) {
      columns[c.name] = {
        notNull: c.notnull === 1,
        default: normaliseDefault(c.dflt_value),
        generated: autoIncrement && primaryKey.length === 1 && primaryKey[0] === c.name,
      };
    }
    const indexes: Record<string, IndexShape> = {};
    const list = db.pragma(`index_list(${JSON.stringify(name)})`) as { name: string; unique: number; origin: string }[];
    for (const index of list) {
      if (index.origin === "pk") continue;
      const cols = db.pragma(`index_info(${JSON.stringify(index.name)})`) as { seqno: number; name: string }[];
      indexes[index.name] = {
        columns: cols.sort((a, b) => a.seqno - b.seqno).map((c) => c.name),
        unique: index.unique === 1,
      };
    }
    const fkRows = db.pragma(`foreign_key_list(${JSON.stringify(name)})`) as {
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_update: string;
      on_delete: string;
    }[];
    const byId = new Map<number, typeof fkRows>();
    for (const row of fkRows) byId.set(row.id, [...(byId.get(row.id) ?? []), row]);
    const foreignKeys = [...byId.values()].map((rows) => {
      rows.sort((a, b) => a.seq - b.seq);
      return {
        columns: rows.map((r) => r.from),
        table: rows[0].table,
        references: rows.map((r) => r.to),
        onDelete: rows[0].on_delete.toUpperCase(),
        onUpdate: rows[0].on_update.toUpperCase(),
      };
    });
    shape[name] = { columns, primaryKey, indexes, foreignKeys: sortKeys(foreignKeys) };
  }
  return shape;
}

// pg_constraint's one-letter actions.
const PG_ACTIONS: Record<string, string> = {
  a: "NO ACTION",
  r: "RESTRICT",
  c: "CASCADE",
  n: "SET NULL",
  d: "SET DEFAULT",
};

/** The shape of the `public` schema of a Postgres database. */
export async function postgresShape(client: pg.Client | pg.Pool): Promise<SchemaShape> {
  const shape: SchemaShape = {};
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
  }>(
    `select table_name, column_name, is_nullable, column_default, is_identity
       from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
  );
  const table = (name: string) => {
    shape[name] ??= { columns: {}, primaryKey: [], indexes: {}, foreignKeys: [] };
    return shape[name];
  };
  for (const c of columns.rows) {
    const serial = c.column_default?.startsWith("nextval(") ?? false;
    table(c.table_name).columns[c.column_name] = {
      notNull: c.is_nullable === "NO",
      default: serial ? null : normaliseDefault(c.column_default),
      generated: c.is_identity === "YES" || serial,
    };
  }
  // Column names of a key in key order, for indexes and constraints alike.
  const keyColumns = `array(select a.attname::text from unnest(%KEY%) with ordinality k(num, ord)
      join pg_attribute a on a.attrelid = %REL% and a.attnum = k.num order by k.ord)`;
  const indexes = await client.query<{ table: string; name: string; unique: boolean; primary: boolean; columns: string[] }>(
    `select t.relname as table, i.relname as name, x.indisunique as unique, x.indisprimary as primary,
            ${keyColumns.replace("%KEY%", "x.indkey::int2[]").replace("%REL%", "x.indrelid")} as columns
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace where n.nspname = 'public'`,
  );
  for (const index of indexes.rows) {
    if (index.primary) table(index.table).primaryKey = index.columns;
    else table(index.table).indexes[index.name] = { columns: index.columns, unique: index.unique };
  }
  const keys = await client.query<{
    table: string;
    target: string;
    columns: string[];
    references: string[];
    on_delete: string;
    on_update: string;
  }>(
    `select t.relname as table, r.relname as target, c.confdeltype as on_delete, c.confupdtype as on_update,
            ${keyColumns.replace("%KEY%", "c.conkey").replace("%REL%", "c.conrelid")} as columns,
            ${keyColumns.replace("%KEY%", "c.confkey").replace("%REL%", "c.confrelid")} as references
       from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
       join pg_namespace n on n.oid = t.relnamespace where c.contype = 'f' and n.nspname = 'public'`,
  );
  for (const key of keys.rows) {
    table(key.table).foreignKeys.push({
      columns: key.columns,
      table: key.target,
      references: key.references,
      onDelete: PG_ACTIONS[key.on_delete] ?? key.on_delete,
      onUpdate: PG_ACTIONS[key.on_update] ?? key.on_update,
    });
  }
  for (const t of Object.values(shape)) t.foreignKeys = sortKeys(t.foreignKeys);
  return shape;
}

function sortKeys(keys: ForeignKeyShape[]): ForeignKeyShape[] {
  return keys.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

const show = (value: unknown) => JSON.stringify(value);

/** Every difference between two shapes, one line each (`table.column: …`); empty when they agree. */
export function compareSchemas(left: SchemaShape, right: SchemaShape, names = ["sqlite", "postgres"]): string[] {
  const [l, r] = names;
  const out: string[] = [];
  for (const name of union(left, right)) {
    const a = left[name];
    const b = right[name];
    if (!a || !b) {
      out.push(`${name}: table only in ${a ? l : r}`);
      continue;
    }
    for (const column of union(a.columns, b.columns)) {
      const ca = a.columns[column];
      const cb = b.columns[column];
      if (!ca || !cb) {
        out.push(`${name}.${column}: column only in ${ca ? l : r}`);
        continue;
      }
      for (const field of ["notNull", "default", "generated"] as const) {
        if (ca[field] !== cb[field]) out.push(`${name}.${column}: ${field} ${show(ca[field])} in ${l}, ${show(cb[field])} in ${r}`);
      }
    }
    if (show(a.primaryKey) !== show(b.primaryKey))
      out.push(`${name}: primary key ${show(a.primaryKey)} in ${l}, ${show(b.primaryKey)} in ${r}`);
    for (const index of union(a.indexes, b.indexes)) {
      const ia = a.indexes[index];
      const ib = b.indexes[index];
      if (!ia || !ib) out.push(`${name}: index ${index} only in ${ia ? l : r}`);
      else if (show(ia) !== show(ib)) out.push(`${name}: index ${index} is ${show(ia)} in ${l}, ${show(ib)} in ${r}`);
    }
    const fa = new Set(a.foreignKeys.map(show));
    const fb = new Set(b.foreignKeys.map(show));
    for (const key of fa) if (!fb.has(key)) out.push(`${name}: foreign key ${key} only in ${l}`);
    for (const key of fb) if (!fa.has(key)) out.push(`${name}: foreign key ${key} only in ${r}`);
  }
  return out;
}

function union(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}
