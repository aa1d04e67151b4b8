/**
 * Small, dependency-free diffs for people reviewing what will run: which arguments the user
 * changed on an approval card, and a line diff of a tool's old and new definition for held-tool
 * review. Pure and Node-free (used by client components).
 */

/** One changed argument: its key and the JSON text before and after (undefined = absent). */
export interface ArgumentChange {
  key: string;
  before?: string;
  after?: string;
}

/** Top-level arguments that differ between what the model asked for and what will run. */
export function argumentChanges(before: Record<string, unknown>, after: Record<string, unknown>): ArgumentChange[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const text = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  return keys.flatMap((key) => {
    const b = text(before[key]);
    const a = text(after[key]);
    return a === b ? [] : [{ key, before: b, after: a }];
  });
}

/** One line of a diff: kept (` `), removed (`-`) or added (`+`). */
export interface DiffLine {
  op: " " | "-" | "+";
  text: string;
}

/** Longest-common-subsequence line diff (definitions are small: a few hundred lines at most). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) out.push({ op: "-", text: a[i++] });
    else out.push({ op: "+", text: b[j++] });
  }
  while (i < a.length) out.push({ op: "-", text: a[i++] });
  while (j < b.length) out.push({ op: "+", text: b[j++] });
  return out;
}

/** A definition as readable text for the diff: description first, then the rest as sorted JSON. */
export function definitionText(definition: unknown): string {
  if (!definition || typeof definition !== "object") return "";
  const { description, ...rest } = definition as Record<string, unknown>;
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
              .map(([k, v]) => [k, sorted(v)]),
          )
        : value;
  return [`description: ${typeof description === "string" ? description : "(none)"}`, JSON.stringify(sorted(rest), null, 2)].join("\n");
}
