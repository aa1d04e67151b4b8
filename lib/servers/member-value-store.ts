/**
 * Storage of members' own values for per-member header/env keys: one encrypted map per (member,
 * server), each value with the origin (scheme, host, port) it was entered for. A value is sent
 * only to that origin; after the server's address changes it is held until its member confirms
 * it for the new one (docs/workspaces.md#per-member-values).
 */
import type { Db } from "../../db/client";
import { getCredential, listServerCredentials, putCredential } from "../../db/queries/credentials";
import { openJson, sealJson } from "../../db/secrets";
import type { ServerRecord } from "../../db/queries/servers";

/** The credential kind a member's own header/env values are stored under (one encrypted JSON map). */
export const MEMBER_VALUES_KIND = "member_values";

/**
 * A member's value for one key and the origin it was entered for (null: a stdio server; absent:
 * stored before origins were kept, counted as the server's current origin until it next moves).
 */
export interface MemberValue {
  value: string;
  origin?: string | null;
}

function decode(valueEnc: string): Record<string, MemberValue> {
  const raw = openJson<Record<string, string | MemberValue>>(valueEnc);
  // Earlier rows hold bare strings: the value without its origin.
  return Object.fromEntries(Object.entries(raw).map(([key, entry]) => [key, typeof entry === "string" ? { value: entry } : entry]));
}

/** The member's stored values for the server's per-member keys (`headers.X`, `env.Y`), decrypted. */
export async function readMemberValues(db: Db, userId: string, serverId: string): Promise<Record<string, MemberValue>> {
  const row = await getCredential(db, { userId, serverId, kind: MEMBER_VALUES_KIND });
  return row ? decode(row.valueEnc) : {};
}

/** Whether a stored value may be sent to a server now at `origin`. */
export function isSendable(entry: MemberValue, origin: string | null): boolean {
  return entry.origin === undefined || entry.origin === origin;
}

/** Store the member's values (encrypted); only keys the server marks per-member are kept. */
export async function writeMemberValues(db: Db, userId: string, record: ServerRecord, values: Record<string, MemberValue>): Promise<void> {
  const allowed = new Set(record.memberKeys);
  const kept = Object.fromEntries(Object.entries(values).filter(([key]) => allowed.has(key)));
  await putCredential(db, { userId, serverId: record.id, kind: MEMBER_VALUES_KIND }, { valueEnc: sealJson(kept), expiresAt: null });
}

/**
 * The server moves away from `previousOrigin`: every member's value that does not yet name its
 * origin gets that one, so none is sent to the new address until its member confirms it there.
 * Returns how many members have values held.
 */
export async function holdMemberValues(db: Db, serverId: string, previousOrigin: string | null): Promise<number> {
  const rows = await listServerCredentials(db, { serverId, kind: MEMBER_VALUES_KIND });
  for (const row of rows) {
    const values = decode(row.valueEnc);
    const bound = Object.fromEntries(
      Object.entries(values).map(([key, entry]) => [key, entry.origin === undefined ? { ...entry, origin: previousOrigin } : entry]),
    );
    await putCredential(db, { userId: row.userId, serverId, kind: MEMBER_VALUES_KIND }, { valueEnc: sealJson(bound), expiresAt: null });
  }
  return rows.length;
}
