/**
 * A user's approval decision for one tool: shared by the agent (which applies it), the database
 * (which stores it) and the settings UI (which picks it). Types and constants only, browser-safe.
 */

/** A user's decision for one tool. */
export type ToolPolicy = "ask" | "allow" | "deny";

/** Every policy value, for validation and pickers. */
export const TOOL_POLICIES: readonly ToolPolicy[] = ["ask", "allow", "deny"];
