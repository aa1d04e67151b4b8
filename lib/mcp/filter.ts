/**
 * Tool filtering on raw names (docs/architecture.md#tools-the-model-sees): with `include` only those; with `exclude` and no
 * `include` all but those; with both, `include` wins.
 */

/** The `tools.include` / `tools.exclude` part of a server config, already normalised to lists. */
export interface ToolFilter {
  include?: string[];
  exclude?: string[];
}

/** Whether the raw tool name passes the filter. */
export function isToolAllowed(rawName: string, filter: ToolFilter | undefined): boolean {
  if (filter?.include) return filter.include.includes(rawName);
  if (filter?.exclude) return !filter.exclude.includes(rawName);
  return true;
}

/** Keep the tools whose raw `name` passes the filter, in their original order. */
export function filterTools<T extends { name: string }>(tools: T[], filter: ToolFilter | undefined): T[] {
  return tools.filter((tool) => isToolAllowed(tool.name, filter));
}
