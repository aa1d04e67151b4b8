"use client";
/** Structured content as a table (a list of flat records) or a collapsible JSON tree. */

import { tableRows, type Json } from "@/lib/agent/structured-table";

function scalar(value: Json) {
  if (value === null) return <span className="text-muted-foreground">null</span>;
  if (typeof value === "string") return <span className="text-emerald-700 dark:text-emerald-400">&quot;{value}&quot;</span>;
  return <span className="text-blue-700 dark:text-blue-400">{String(value)}</span>;
}

/** A collapsible tree of any JSON value. */
export function JsonTree({ value, name }: { value: unknown; name?: string }) {
  const v = value as Json;
  if (v === null || typeof v !== "object") {
    return (
      <div className="font-mono text-xs">
        {name !== undefined && <span className="text-muted-foreground">{name}: </span>}
        {scalar(v)}
      </div>
    );
  }
  const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
  return (
    <details open className="font-mono text-xs">
      <summary className="cursor-pointer text-muted-foreground">
        {name !== undefined ? `${name}: ` : ""}
        {Array.isArray(v) ? `[${entries.length}]` : `{${entries.length}}`}
      </summary>
      <div className="ml-4 border-l border-border pl-2">
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
        <tr>
          {table.columns.map((c) => (
            <th key={c} className="border border-border px-2 py-1 text-left">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((row, i) => (
          <tr key={i}>
            {table.columns.map((c) => (
              <td key={c} className="border border-border px-2 py-1">
                {row[c] === undefined ? "" : String(row[c])}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
