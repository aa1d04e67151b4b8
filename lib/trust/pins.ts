/**
 * Tool pinning (rug-pull protection). The first listing of a server in its workspace is pinned:
 * that is the list the person who added it saw. Every later listing is compared by definition
 * hash; a changed or new tool is held (kept from the model) until a person approves its current
 * definition. Holding and approving are audited. The caller decides who may approve.
 */
import type { Db } from "../../db/client";
import { generationOf } from "../../db/generation";
import { recordAudit } from "../../db/queries/audit";
import { getServerTrust, updateServerTrust } from "../../db/queries/server-trust";
import { getToolPin, listToolPinsByServer, saveToolPin, type PinState, type ToolPinRecord } from "../../db/queries/tool-pins";
import { AppError } from "../errors";
import { LookupCache } from "../lookup-cache";
import type { RegisteredTool } from "../mcp/types";
import { definitionHash, definitionOf } from "./definition-hash";
import { withTransaction } from "../../db/transaction";

/** Why a tool is held: `new` (never approved) or `changed` (differs from the approved definition). */
export type HeldState = "new" | "changed";

/** Who caused a sync or approval, for the audit log. */
export interface PinActor {
  userId: string | null;
  workspaceId?: string | null;
}

async function audit(db: Db, actor: PinActor, action: string, serverId: string, detail: Record<string, unknown>) {
  await recordAudit(db, { actorId: actor.userId, workspaceId: actor.workspaceId ?? null, action, target: `server:${serverId}`, detail });
}

function nextPin(
  existing: ToolPinRecord | undefined,
  serverId: string,
  tool: RegisteredTool,
  hash: string,
): Omit<ToolPinRecord, "updatedAt"> {
  const definition = definitionOf(tool);
  const approvedHash = existing?.approvedHash ?? null;
  const state: PinState = approvedHash === hash ? "pinned" : approvedHash === null ? "new" : "changed";
  return {
    serverId,
    toolName: tool.rawName,
    state,
    approvedHash,
    approvedDefinition: existing?.approvedDefinition ?? null,
    currentHash: hash,
    currentDefinition: definition,
    approvedBy: existing?.approvedBy ?? null,
  };
}

// Each server's last sync: the hash of every tool it listed and the held ones. While the change
// stamp stands (every write to pins, policies and trust settings moves it, db/generation.ts) and the
// server lists the same definitions, a sync would read the same pins and write nothing: its answer
// is this one. Keyed by server, not user: pins belong to the server, the same for every member who
// may reach it (membership is checked before anything gets here).
const lastSyncs = new LookupCache<{ hashes: Map<string, string>; held: Map<string, HeldState> }>(10_000);

function sameHashes(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, hash] of a) if (b.get(name) !== hash) return false;
  return true;
}

/**
 * Compare one server's listed tools with its pins (pinning them all on the first listing) and
 * return the held ones by raw tool name. Wrapper tools are ours, not the server's: never pinned.
 */
export async function syncToolPins(db: Db, serverId: string, listed: RegisteredTool[], actor: PinActor): Promise<Map<string, HeldState>> {
  // A pin is keyed by (server, raw name): a second tool of one name (a server defect the engine
  // already refuses, lib/mcp/discovery.ts) must never take turns with the first under one key.
  const names = new Set<string>();
  const tools = listed.filter((t) => t.kind === "tool" && t.serverId === serverId && !names.has(t.rawName) && names.add(t.rawName));
  const hashes = new Map(tools.map((tool) => [tool.rawName, definitionHash(tool)]));
  const last = lastSyncs.get(serverId, generationOf(db));
  if (last && sameHashes(last.hashes, hashes)) return new Map(last.held);
  const held = await syncWithStore(db, serverId, tools, actor);
  // Stamped after the sync's own writes, which moved the stamp.
  lastSyncs.set(serverId, generationOf(db), { hashes, held: new Map(held) });
  return held;
}

async function syncWithStore(db: Db, serverId: string, tools: RegisteredTool[], actor: PinActor): Promise<Map<string, HeldState>> {
  // Every statement goes through `tx`: one transaction on either database, one at a time per server
  // (everything it reads and writes is this server's: its trust row, its pins, an audit entry).
  return await withTransaction(
    db,
    async (tx) => {
      const held = new Map<string, HeldState>();
      if (!(await getServerTrust(tx, serverId)).pinnedAt) {
        for (const tool of tools) {
          const hash = definitionHash(tool);
          await saveToolPin(tx, {
            ...nextPin(undefined, serverId, tool, hash),
            state: "pinned",
            approvedHash: hash,
            approvedDefinition: definitionOf(tool),
          });
        }
        await updateServerTrust(tx, serverId, { pinnedAt: new Date() }, actor.userId);
        await audit(tx, actor, "tools.pinned", serverId, { tools: tools.map((t) => t.rawName) });
        return held;
      }
      const pins = new Map((await listToolPinsByServer(tx, serverId)).map((p) => [p.toolName, p]));
      for (const tool of tools) {
        const hash = definitionHash(tool);
        const existing = pins.get(tool.rawName);
        if (existing && existing.currentHash === hash) {
          if (existing.state !== "pinned") held.set(tool.rawName, existing.state);
          continue;
        }
        const pin = nextPin(existing, serverId, tool, hash);
        await saveToolPin(tx, pin);
        if (pin.state !== "pinned") {
          held.set(tool.rawName, pin.state);
          await audit(tx, actor, "tool.held", serverId, { tool: tool.rawName, reason: pin.state, hash });
        }
      }
      return held;
    },
    { serializeOn: pinsKey(serverId) },
  );
}

/** The transaction key of a server's pins (db/transaction.ts `TransactionOptions`). */
function pinsKey(serverId: string): string {
  return `tool-pins:${serverId}`;
}

/** A held tool as the review screen shows it: the approved and the current definition. */
export interface HeldTool {
  toolName: string;
  held: HeldState;
  approved: unknown;
  current: unknown;
  currentHash: string;
}

/** The server's held tools with both definitions (for the readable diff). */
export async function listHeldTools(db: Db, serverId: string): Promise<HeldTool[]> {
  return (await listToolPinsByServer(db, serverId))
    .filter((p) => p.state !== "pinned")
    .map((p) => ({
      toolName: p.toolName,
      held: p.state as HeldState,
      approved: p.approvedDefinition,
      current: p.currentDefinition,
      currentHash: p.currentHash,
    }));
}

/**
 * Approve a held tool's current definition. `hash` is the definition the person reviewed: if the
 * server changed it again since, the approval is refused so nobody approves what they did not see.
 */
export async function approveHeldTool(
  db: Db,
  serverId: string,
  toolName: string,
  hash: string,
  actor: PinActor & { userId: string },
): Promise<void> {
  // One transaction: a sync landing between the read and the write would otherwise be overwritten
  // by the definition read before it, and two approvals at once would both be audited.
  await withTransaction(
    db,
    async (tx) => {
      const pin = await getToolPin(tx, { serverId, toolName });
      if (!pin || pin.state === "pinned") throw new AppError("tool.not_held", "This tool is not waiting for review.");
      if (pin.currentHash !== hash)
        throw new AppError("tool.definition_changed", "The tool's definition changed again: review the new definition.");
      await saveToolPin(tx, {
        ...pin,
        state: "pinned",
        approvedHash: pin.currentHash,
        approvedDefinition: pin.currentDefinition,
        approvedBy: actor.userId,
      });
      await audit(tx, actor, "tool.definition_approved", serverId, { tool: toolName, reason: pin.state, hash });
    },
    { serializeOn: pinsKey(serverId) },
  );
}
