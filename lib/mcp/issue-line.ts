/**
 * Validation failures in one line (docs/errors.md): a Zod error, or an error text that embeds one
 * (the SDK's "Invalid result for tools/list: [ { … } ]" is the issue list as indented JSON), becomes
 * "`field.path`: what is wrong" — never a multi-line dump in a status, an API error or a log.
 */

interface Issue {
  path?: unknown[];
  message?: unknown;
}

/** One line for a list of Zod-style issues: the first one, with its field, and how many more. */
export function issuesLine(issues: readonly Issue[]): string {
  const [first] = issues;
  if (!first) return "invalid value";
  const path = Array.isArray(first.path) && first.path.length ? `\`${first.path.map(String).join(".")}\`: ` : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? "s" : ""})` : "";
  return `${path}${String(first.message ?? "invalid value").replace(/\s+/g, " ")}${more}`;
}

/** The one-line text of a Zod error (any copy of Zod: recognised by shape, not class), or undefined. */
export function zodErrorLine(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (!(error instanceof Error) || error.name !== "ZodError" || !Array.isArray(issues)) return undefined;
  return issuesLine(issues as Issue[]);
}

/** `message` with an embedded JSON issue list (a stringified Zod error) replaced by its one line. */
export function flattenIssueDump(message: string): string {
  const start = message.search(/\[\s*\{/);
  if (start < 0) return message;
  try {
    const issues = JSON.parse(message.slice(start)) as unknown;
    if (!Array.isArray(issues) || !issues.every((i) => i && typeof i === "object" && "message" in i)) return message;
    return `${message.slice(0, start)}${issuesLine(issues as Issue[])}`;
  } catch {
    return message; // not (only) an issue list: left as it is
  }
}
