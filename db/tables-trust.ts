/**
 * The tool-trust tables (docs/tool-trust.md), kept apart from db/tables.ts and spread into its
 * `defineTables`: approval policies per user and per workspace, a server's trust, and tool pins.
 */
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { ColumnKit } from "./columns/sqlite";

/** The trust tables over the column kit `k`; they point at `users` and `mcpServers`. */
export function defineTrustTables(k: ColumnKit, refs: { users: { id: AnySQLiteColumn }; mcpServers: { id: AnySQLiteColumn } }) {
  const { users, mcpServers } = refs;
  /** Per-user tool approval policy, keyed by server and raw tool name. */
  const toolPolicies = k.table(
    "tool_policies",
    {
      userId: k
        .text("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      serverId: k
        .text("server_id")
        .notNull()
        .references(() => mcpServers.id, { onDelete: "cascade" }),
      toolName: k.text("tool_name").notNull(),
      policy: k.enum("policy", ["ask", "allow", "deny"]).notNull(),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.userId, t.serverId, t.toolName] })],
  );

  /**
   * A workspace-wide approval policy for one tool, set by workspace owners/admins. Members cannot
   * loosen it: the effective policy is the stricter of this and the member's own `tool_policies` row.
   */
  const workspaceToolPolicies = k.table(
    "workspace_tool_policies",
    {
      serverId: k
        .text("server_id")
        .notNull()
        .references(() => mcpServers.id, { onDelete: "cascade" }),
      toolName: k.text("tool_name").notNull(),
      policy: k.enum("policy", ["ask", "allow", "deny"]).notNull(),
      updatedBy: k.text("updated_by").references(() => users.id, { onDelete: "set null" }),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.serverId, t.toolName] })],
  );

  /**
   * Trust settings of a server (a row exists once the server was first listed or someone changed a
   * setting; no row = untrusted, lethal-trifecta check on, nothing pinned yet). Kept beside
   * `mcp_servers` so the engine's server record stays free of agent policy.
   */
  const serverTrust = k.table("server_trust", {
    serverId: k
      .text("server_id")
      .primaryKey()
      .references(() => mcpServers.id, { onDelete: "cascade" }),
    trusted: k.boolean("trusted").notNull().default(false),
    trifectaCheck: k.boolean("trifecta_check").notNull().default(true),
    /** When the first tool list was pinned (null = not yet: the next listing becomes the pinned one). */
    pinnedAt: k.timestamp("pinned_at"),
    updatedBy: k.text("updated_by").references(() => users.id, { onDelete: "set null" }),
    updatedAt: k.updatedAt(),
  });

  /**
   * The approved definition of each server tool (rug-pull protection). `approved*` is what a person
   * saw; `current*` is the latest listing. `state` is `pinned` when they match, else `new`/`changed`:
   * the tool is held from the model until someone approves the current definition.
   */
  const toolPins = k.table(
    "tool_pins",
    {
      serverId: k
        .text("server_id")
        .notNull()
        .references(() => mcpServers.id, { onDelete: "cascade" }),
      toolName: k.text("tool_name").notNull(),
      state: k.enum("state", ["pinned", "new", "changed"]).notNull(),
      approvedHash: k.text("approved_hash"),
      approvedDefinition: k.json("approved_definition"),
      currentHash: k.text("current_hash").notNull(),
      currentDefinition: k.json("current_definition").notNull(),
      approvedBy: k.text("approved_by").references(() => users.id, { onDelete: "set null" }),
      updatedAt: k.updatedAt(),
    },
    (t) => [k.primaryKey({ columns: [t.serverId, t.toolName] })],
  );

  return { toolPolicies, workspaceToolPolicies, serverTrust, toolPins };
}
