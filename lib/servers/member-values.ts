/**
 * Per-member header/env values: an owner/admin marks keys of a `per_member` server; each member
 * stores their own value (encrypted under their user id), like a personal API key. Values are
 * never returned, only whether each key is set, and whether it is held: entered for another
 * address than the server's current one, and not sent until its member confirms it there.
 */
import type { Db } from "../../db/client";
import { recordAudit } from "../../db/queries/audit";
import { toServerDefinition } from "../../db/queries/servers";
import { AppError } from "../errors";
import { isSendable, readMemberValues, writeMemberValues, type MemberValue } from "./member-value-store";
import { SECRET_MASK } from "../../db/server-secrets";
import { getServer } from "./lookup";
import { secretOrigin } from "./secrets";
import type { Actor } from "./service";

/**
 * The server's per-member keys and, for each, whether the caller has set a value and whether it is
 * held for a new address (`origin` is the address a confirmation would bind it to).
 */
export async function memberValuesView(db: Db, actor: Actor, serverId: string) {
  const record = await getServer(db, actor, serverId);
  const origin = secretOrigin((await toServerDefinition(db, record)).config);
  const own = await readMemberValues(db, actor.id, record.id);
  return {
    origin,
    keys: record.memberKeys.map((key) => ({
      key,
      set: own[key] !== undefined,
      held: own[key] !== undefined && !isSendable(own[key], origin),
    })),
  };
}

/**
 * Replace the caller's values: a key sent as the mask keeps its stored value and confirms it for
 * the server's current address (a held value is sent again from then on), an empty string removes
 * it, a key left out stays as it is (held or not).
 */
export async function setMemberValues(db: Db, actor: Actor, serverId: string, values: Record<string, string>) {
  const record = await getServer(db, actor, serverId);
  const allowed = new Set(record.memberKeys);
  const unknown = Object.keys(values).find((key) => !allowed.has(key));
  if (unknown) throw new AppError("request.invalid", `\`${unknown}\` is not a per-member key of this server`, `values.${unknown}`);
  const origin = secretOrigin((await toServerDefinition(db, record)).config);
  const stored = await readMemberValues(db, actor.id, record.id);
  const next: Record<string, MemberValue> = {};
  const confirmed: string[] = [];
  for (const key of record.memberKeys) {
    const value = values[key];
    if (value === undefined) {
      if (stored[key] !== undefined) next[key] = stored[key];
    } else if (value === SECRET_MASK) {
      if (stored[key] === undefined)
        throw new AppError("request.invalid", `\`${key}\` has no stored value to keep; enter it`, `values.${key}`);
      if (!isSendable(stored[key], origin)) confirmed.push(key);
      next[key] = { value: stored[key].value, origin };
    } else if (value !== "") next[key] = { value, origin };
  }
  await writeMemberValues(db, actor.id, record, next);
  await recordAudit(db, {
    actorId: actor.id,
    workspaceId: actor.workspaceId,
    action: "server.member_values",
    target: record.id,
    detail: { keys: Object.keys(next), ...(confirmed.length ? { confirmedFor: origin, confirmed } : {}) },
  });
  return await memberValuesView(db, actor, serverId);
}
