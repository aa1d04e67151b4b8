/**
 * A stable fingerprint of a server config, so `reload()` reconnects only servers whose config
 * really changed (key order and bool-like spellings do not count as a change).
 */
import { createHash } from "node:crypto";
import type { ServerDefinition } from "./config";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

// The pool compares hashes on every call; the host hands it the same definition object until the
// server changes (a new object then), so each object is hashed once.
const hashes = new WeakMap<ServerDefinition, string>();

/** sha256 of the canonical JSON of the server's name and validated config. */
export function configHash(server: ServerDefinition): string {
  let hash = hashes.get(server);
  if (hash === undefined) {
    hash = createHash("sha256")
      .update(JSON.stringify(canonical({ name: server.name, config: server.config })))
      .digest("hex");
    hashes.set(server, hash);
  }
  return hash;
}
