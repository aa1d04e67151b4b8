"use client";
/** Structured content as a table (a list of flat records) or a collapsible JSON tree. */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function scalar(value: Json) {
  if (value === null) return <span className="text-zinc-400">null</span>;
  if (typeof value === "string") return <span className="text-emerald-700 dark:text-emerald-400">&quot;{value}&quot;</span>;
  return <span className="text-blue-700 dark:text-blue-400">{String(value)}</span>;
}

/** Rows of a table when `value` is (or wraps) a list of flat records, else null. */
export function tableRows(value: unknown): { columns: string[]; rows: Record<string, Json>[] } | null {
  const list = Array.isArray(value) ? value : isRecord(value) && Object.keys(value).length === 1 && Array.isArray(Object.values(value)[0]) ? (Object.values(value)[0] as Json[]) : null;
  if (!list || list.length === 0 || !list.every(isRecord)) return null;
  const rows = list as Record<string, Json>[];
  if (rows.some((r) => Object.values(r).some((v) => v !== null && typeof v === "object"))) return null;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return { columns, rows };
}

/** A collapsible tree of any JSON value. */
export function JsonTree({ value, name }: { value: unknown; name?: string }) {
  const v = value as Json;
  if (v === null || typeof v !== "object") {
    return (
      <div className="font-mono text-xs">
        {name !== undefined && <span className="text-zinc-500">{name}: </span>}
        {scalar(v)}
      </div>
    );
  }
  const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
  return (
    <details open className="font-mono text-xs">
      <summary className="cursor-pointer text-zinc-500">
        {name !== undefined ? `${name}: ` : ""}
        {Array.isArray(v) ? `[${entries.length}]` : `{${entries.length}}`}
      </summary>
      <div className="ml-4 border-l border-zinc-200 pl-2 dark:border-zinc-700">
        {entries.map(([key, item]) => (
          <JsonTree key={key} name={key} value={item} />
        ))}
      </div>
    </details>
  );
}

/** Structured content: a table when it fits, else the tree. */
export function StructuredView({ value }: { value: unknown }) {
  const table = tableRows(value);
  if (!table) return <JsonTree value={value} />;
  return (
    <table data-testid="structured-table" className="border-collapse text-xs">
      <thead>
        <tr>{table.columns.map((c) => <th key={c} className="border px-2 py-1 text-left">{c}</th>)}</tr>
      </thead>
      <tbody>
        {table.rows.map((row, i) => (
          <tr key={i}>{table.columns.map((c) => <td key={c} className="border px-2 py-1">{row[c] === undefined ? "" : String(row[c])}</td>)}</tr>
        ))}
      </tbody>
    </table>
  );
}
