/**
 * Where the agent's tool set is gated: held tools (new or changed definitions awaiting review) are
 * taken out before the model sees the list, and every call is decided by the pure approval policy
 * with the server's trust settings, the user's and the workspace's choices and the conversation's
 * untrusted-content sources. `refresh` runs between steps and before each call, so a tool changed
 * mid-turn (`list_changed`) is withdrawn before the next model request; it lists and syncs pins
 * only when the pool's listing version or the trust tables' stamp moved since the last time.
 */
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { getServerTrust, type ServerTrustRecord } from "../../db/queries/server-trust";
import { listToolPoliciesByUser, listWorkspaceToolPolicies } from "../../db/queries/tool-policies";
import { LookupCache } from "../lookup-cache";
import type { McpPool, RegisteredTool, ServerDefinition } from "../mcp";
import { syncToolPins, type HeldState, type PinActor } from "./pins";
import { approvalStatus, decideApproval, policyKey, policyToolName, type ContentSource, type ToolPolicy } from "./policy";

/** What gating needs. */
export interface ToolGateOptions {
  db: Db;
  pool: Pick<McpPool, "toolset" | "listingVersion">;
  user: { id: string; workspaceId?: string };
  servers: ServerDefinition[];
}

/** The refusal the model gets for a held tool (also if a call reaches it after the list was built). */
export const HELD_TOOL_ERROR = "This tool's definition changed or is new and is waiting for a person to review it; it cannot run.";

/** Held tools by registered name after syncing every server's pins with its current listing. */
export async function heldByName(
  db: Db,
  servers: ServerDefinition[],
  registered: RegisteredTool[],
  actor: PinActor,
): Promise<Map<string, HeldState>> {
  const held = new Map<string, HeldState>();
  for (const server of servers) {
    const mine = registered.filter((t) => t.serverId === server.id);
    if (mine.length === 0) continue;
    const byRaw = await syncToolPins(db, server.id, mine, actor);
    for (const tool of mine) {
      const state = tool.kind === "tool" ? byRaw.get(tool.rawName) : undefined;
      if (state) held.set(tool.name, state);
    }
  }
  return held;
}

// The stored choices and trust settings a gate starts from, read once per change stamp (every write
// to policies and trust settings moves it, db/generation.ts): a gate is built for every chat turn
// and every call by hand. Keys name what the rows belong to: the user for their own choices, the
// servers (of the caller's workspace, checked before) for workspace choices and trust settings.
const storedChoices = new LookupCache<Map<string, ToolPolicy>>(10_000);
const storedTrust = new LookupCache<ServerTrustRecord>(20_000);

function choicesMap(records: { serverId: string; toolName: string; policy: ToolPolicy }[]): Map<string, ToolPolicy> {
  return new Map(records.map((p) => [policyKey(p.serverId, p.toolName), p.policy]));
}

/** The gate for one chat run. */
export class ToolGate {
  private held = new Map<string, HeldState>();
  private byName = new Map<string, RegisteredTool>();
  private readonly trust = new Map<string, ServerTrustRecord>();
  private userChoices = new Map<string, ToolPolicy>();
  private workspaceChoices = new Map<string, ToolPolicy>();
  private readonly actor: PinActor;
  // What the last refresh offered, and the listing version and trust stamp it was computed from.
  private last: { version: number; stamp: string; offered: RegisteredTool[] } | null = null;

  /** A gate with the stored choices and trust settings loaded (once per run). */
  static async open(options: ToolGateOptions): Promise<ToolGate> {
    const gate = new ToolGate(options);
    await gate.load();
    return gate;
  }

  private constructor(private readonly options: ToolGateOptions) {
    this.actor = { userId: options.user.id, workspaceId: options.user.workspaceId ?? null };
  }

  // The stored choices and trust settings (queries, hence not in the constructor).
  private async load(): Promise<void> {
    const { db, user, servers } = this.options;
    const stamp = generationOf(db);
    for (const server of servers)
      this.trust.set(server.id, await storedTrust.readAsync(server.id, stamp, async () => await getServerTrust(db, server.id)));
    this.userChoices = await storedChoices.readAsync(`user\n${user.id}`, stamp, async () =>
      choicesMap(await listToolPoliciesByUser(db, user.id)),
    );
    const serverIds = servers.map((s) => s.id);
    this.workspaceChoices = await storedChoices.readAsync(`servers\n${serverIds.join("\n")}`, stamp, async () =>
      choicesMap(await listWorkspaceToolPolicies(db, serverIds)),
    );
  }

  /**
   * The tools the model may be offered (none held): listed and checked against the pins again only
   * when a listing changed (list_changed, connect, drop) or a trust decision was stored since the
   * last refresh; otherwise the same array as last time. `listed` is the servers' toolset when the
   * caller has just listed it (a hand call), so it is not listed twice.
   */
  async refresh(listed?: RegisteredTool[]): Promise<RegisteredTool[]> {
    const { db, pool, user, servers } = this.options;
    const version = pool.listingVersion(user.id, servers);
    const last = this.last;
    if (!listed && last && version !== null && last.version === version && last.stamp === generationOf(db)) return last.offered;
    const registered = listed ?? (await pool.toolset(user.id, servers));
    this.held = await heldByName(db, servers, registered, this.actor);
    this.byName = new Map(registered.map((t) => [t.name, t]));
    const offered = registered.filter((t) => !this.held.has(t.name));
    // Stamped after the pin sync, whose own writes move the stamp; a version read before listing
    // (null while a server is not connected) makes a change during the listing list again.
    this.last = version === null ? null : { version, stamp: generationOf(db), offered };
    return offered;
  }

  /** Whether a registered tool is held as of the last refresh. */
  isHeld(name: string): boolean {
    return this.held.has(name);
  }

  /** Why a registered tool is held as of the last refresh, or null when it is not. */
  heldState(name: string): HeldState | null {
    return this.held.get(name) ?? null;
  }

  /** A server's own tool by its raw name, as of the last refresh (wrapper tools are not the server's). */
  serverTool(serverId: string, rawName: string): RegisteredTool | undefined {
    for (const tool of this.byName.values())
      if (tool.kind === "tool" && tool.serverId === serverId && tool.rawName === rawName) return tool;
    return undefined;
  }

  /** The held tools of the last refresh (for the chat status). */
  heldTools(): { name: string; serverName: string; rawName: string; held: HeldState }[] {
    return [...this.held].flatMap(([name, held]) => {
      const tool = this.byName.get(name);
      return tool ? [{ name, serverName: tool.serverName, rawName: tool.rawName, held }] : [];
    });
  }

  /** The AI SDK approval status of one call, given the conversation's content sources so far. */
  approval(toolName: string, sources: readonly ContentSource[]) {
    const tool = this.byName.get(toolName);
    if (!tool) return { type: "denied" as const, reason: "This tool is not available." };
    if (this.held.has(toolName)) return { type: "denied" as const, reason: HELD_TOOL_ERROR };
    const trust = this.trust.get(tool.serverId);
    const key = policyKey(tool.serverId, policyToolName(tool));
    return approvalStatus(
      decideApproval({
        tool,
        trusted: trust?.trusted ?? false,
        trifectaCheck: trust?.trifectaCheck ?? true,
        userChoice: this.userChoices.get(key),
        workspaceChoice: this.workspaceChoices.get(key),
        contextSources: sources,
      }),
    );
  }
}
