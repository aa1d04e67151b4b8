/**
 * What a saved server edit does beyond storing the config: a changed credential mode forgets the
 * shared account (nobody's tokens carry over), a changed address holds every member's own values
 * until each confirms them for the new origin, and both are audited with before/after so the
 * workspace's owners and admins, the server's creator among them, see who moved what where.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { setSharedCredentialsUserId, type ServerRecord } from "../../db/queries/servers";
import type { ServerConfig } from "../mcp/config";
import { credentialModeOf } from "./credential-mode";
import { holdMemberValues } from "./member-value-store";
import { secretOrigin } from "./secrets";

/** Who made the edit, in which workspace. */
export interface ChangeActor {
  id: string;
  workspaceId: string;
}

/** Apply and audit the consequences of `existing` becoming `record` with `config` (the clear config). */
export async function recordServerChange(
  db: Db,
  actor: ChangeActor,
  existing: ServerRecord,
  record: ServerRecord,
  config: ServerConfig,
): Promise<void> {
  const mode = { from: credentialModeOf(existing.config), to: credentialModeOf(config) };
  const origin = { from: secretOrigin(existing.config), to: secretOrigin(config) };
  const moved = origin.from !== origin.to;
  const audit = async (action: string, detail: unknown) =>
    await recordAudit(db, { actorId: actor.id, workspaceId: actor.workspaceId, action, target: record.id, detail });
  await audit("server.update", {
    name: record.name,
    ...(moved ? { origin } : {}),
    ...(mode.from !== mode.to ? { credentials: mode } : {}),
  });
  if (mode.from !== mode.to) {
    // Either way nobody's tokens carry over: leaving `shared` stops using the account's tokens for
    // everyone; entering it waits for an explicit Connect for everyone (no fallback to anyone's own).
    await setSharedCredentialsUserId(db, existing, null);
    await audit("server.credentials_mode", mode);
  }
  if (moved) {
    const heldMembers = await holdMemberValues(db, record.id, origin.from);
    // Addressed to the creator (`notify`): the workspace audit view shows it to its owners and admins.
    await audit("server.address_change", { name: record.name, origin, credentials: mode, heldMembers, notify: existing.createdBy });
  }
}
