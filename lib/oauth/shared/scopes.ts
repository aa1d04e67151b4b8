/** Scope strings (space-separated, RFC 6749 §3.3), shared by the browser and headless flows. */

/** Space-separated scopes of all, each once, in first-seen order; undefined when all are empty. */
export function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = [...new Set(scopes.flatMap((s) => (s ?? "").split(/\s+/)).filter(Boolean))];
  return all.length ? all.join(" ") : undefined;
}
