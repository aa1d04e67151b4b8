/**
 * Whether a tool's structuredContent reads best as a table: a list of flat records, or an object
 * whose only field is such a list. Pure and node-free (used by the tool card).
 */

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/** Columns and rows when `value` fits a table, else null (render it as a JSON tree). */
export function tableRows(value: unknown): { columns: string[]; rows: Record<string, Json>[] } | null {
  const only = isRecord(value) && Object.keys(value).length === 1 ? Object.values(value)[0] : undefined;
  const list = Array.isArray(value) ? value : Array.isArray(only) ? only : null;
  if (!list || list.length === 0 || !list.every(isRecord)) return null;
  const rows = list as Record<string, Json>[];
  if (rows.some((r) => Object.values(r).some((v) => v !== null && typeof v === "object"))) return null;
  return { columns: [...new Set(rows.flatMap((r) => Object.keys(r)))], rows };
}
