"use client";
/**
 * A table whose columns sort on a click or Enter/Space of their header button (`aria-sort` tells
 * assistive technology the order); it scrolls sideways inside its own box on a narrow screen.
 */
import { useState } from "react";

/** One column: its header, how a row shows in it, and the value it sorts by. */
export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => React.ReactNode;
  sortValue: (row: T) => number | string;
  numeric?: boolean;
}

/** The table, sorted by `initialSort` (descending) until a header is chosen. */
export function SortableTable<T>({
  caption,
  rows,
  columns,
  initialSort,
  testId,
}: {
  caption: string;
  rows: T[];
  columns: Column<T>[];
  initialSort: string;
  testId: string;
}) {
  const [sort, setSort] = useState<{ key: string; dir: "ascending" | "descending" }>({ key: initialSort, dir: "descending" });
  const column = columns.find((c) => c.key === sort.key) ?? columns[0];
  const sorted = [...rows].sort((a, b) => {
    const x = column.sortValue(a);
    const y = column.sortValue(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return sort.dir === "ascending" ? order : -order;
  });
  if (rows.length === 0) return null;
  return (
    <div className="max-w-full overflow-x-auto rounded-md border border-border" data-testid={testId}>
      <table className="w-full text-sm">
        <caption className="px-3 py-2 text-left font-medium">{caption}</caption>
        <thead className="bg-muted/50">
          <tr>
            {columns.map((c) => (
              <th
                key={c.key}
                scope="col"
                aria-sort={sort.key === c.key ? sort.dir : undefined}
                className={c.numeric ? "px-3 py-2 text-right" : "px-3 py-2 text-left"}
              >
                <button
                  type="button"
                  className="font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                  onClick={() =>
                    setSort((s) => ({
                      key: c.key,
                      dir: s.key === c.key && s.dir === "descending" ? "ascending" : "descending",
                    }))
                  }
                >
                  {c.label}
                  <span aria-hidden="true">{sort.key === c.key ? (sort.dir === "ascending" ? " ▲" : " ▼") : ""}</span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sorted.map((row, i) => (
            // Rows have no stable id of their own across tables; the index is the sorted position.
            <tr key={i} className="border-t border-border">
              {columns.map((c) => (
                <td key={c.key} className={c.numeric ? "px-3 py-1.5 text-right tabular-nums" : "px-3 py-1.5 break-all"}>
                  {c.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
