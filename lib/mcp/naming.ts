/**
 * Registered tool names (docs/architecture.md#tools-the-model-sees): `mcp_{server}_{tool}` with `-` and `.` turned into `_`,
 * valid for every LLM provider, with a short deterministic hash suffix for over-long or colliding
 * names. The way back is a map, never splitting on `_` (server and tool names contain `_` too).
 */
import { createHash } from "node:crypto";
import type { RegisteredKind } from "./types";

/** What every provider accepts as a tool name. */
export const PROVIDER_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;

/** One thing to name: a server tool or a wrapper (`rawName` is then the wrapper kind). */
export interface NameRequest {
  serverId: string;
  serverName: string;
  rawName: string;
  kind: RegisteredKind;
}

/** `-` and `.` become `_` (docs/architecture.md#tools-the-model-sees); any other character a provider rejects also becomes `_`. */
export function normalisePart(part: string): string {
  return part.replace(/[^a-zA-Z0-9_]/g, "_");
}

/** The name before collision and length handling, e.g. `mcp_my_api_list_items_v2`. */
export function baseToolName(serverName: string, part: string): string {
  return `mcp_${normalisePart(serverName)}_${normalisePart(part)}`;
}

/** Short stable hash of the identity (not the name), so a suffix never changes with list order. */
export function identityHash(request: NameRequest, length = 6): string {
  return createHash("sha256").update(`${request.serverId}\u0000${request.kind}\u0000${request.rawName}`).digest("hex").slice(0, length);
}

function withSuffix(base: string, hash: string): string {
  return `${base.slice(0, MAX_NAME - hash.length - 1)}_${hash}`;
}

/**
 * Assign provider-safe unique names to all `requests` together. Every member of a colliding group
 * gets a suffix (so no tool silently keeps a name another one also wanted). Returns name → request.
 */
export function assignNames(requests: NameRequest[]): Map<string, NameRequest> {
  const bases = requests.map((request) => baseToolName(request.serverName, request.rawName));
  const counts = new Map<string, number>();
  for (const base of bases) counts.set(base, (counts.get(base) ?? 0) + 1);

  const result = new Map<string, NameRequest>();
  const pending: number[] = [];
  requests.forEach((request, index) => {
    const base = bases[index];
    if (base.length <= MAX_NAME && counts.get(base) === 1) result.set(base, request);
    else pending.push(index);
  });
  for (const index of pending) {
    // Longer hashes only if a suffixed name happens to meet another name; 16 hex digits end it.
    for (const length of [6, 10, 16]) {
      const name = withSuffix(bases[index], identityHash(requests[index], length));
      if (!result.has(name)) {
        result.set(name, requests[index]);
        break;
      }
    }
  }
  return result;
}
