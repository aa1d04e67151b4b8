/**
 * Per-member header/env values: an owner/admin marks keys of a `per_member` server; each member
 * stores their own value (encrypted under their user id), like a personal API key. Values are
 * never returned, only whether each key is set.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { AppError } from "../errors";
import { readMemberValues, writeMemberValues } from "./credential-mode";
import { SECRET_MASK } from "../../db/server-secrets";
import { getServer } from "./lookup";
import type { Actor } from "./service";

/** The server's per-member keys and, for each, whether the caller has set a value. */
export function memberValuesView(db: Db, actor: Actor, serverId: string) {
  const record = getServer(db, actor, serverId);
  const own = readMemberValues(db, actor.id, record.id);
  return { keys: record.memberKeys.map((key) => ({ key, set: own[key] !== undefined })) };
}

/** Replace the caller's values; a key sent as the mask keeps its stored value, an empty string removes it. */
export function setMemberValues(db: Db, actor: Actor, serverId: string, values: Record<string, string>) {
  const record = getServer(db, actor, serverId);
  const allowed = new Set(record.memberKeys);
  const unknown = Object.keys(values).find((key) => !allowed.has(key));
  if (unknown) throw new AppError("request.invalid", `\`${unknown}\` is not a per-member key of this server`, `values.${unknown}`);
  const stored = readMemberValues(db, actor.id, record.id);
  const next: Record<string, string> = {};
  for (const key of record.memberKeys) {
    const value = values[key];
    if (value === undefined || value === SECRET_MASK) {
      if (stored[key] !== undefined) next[key] = stored[key];
    } else if (value !== "") next[key] = value;
  }
  writeMemberValues(db, actor.id, record, next);
  recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "server.member_values",
    target: record.id,
    detail: { keys: Object.keys(next) },
  });
  return memberValuesView(db, actor, serverId);
}
