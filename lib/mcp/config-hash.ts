/**
 * A stable fingerprint of a server config, so `reload()` reconnects only servers whose config
 * really changed (key order and bool-like spellings do not count as a change), and one of the
 * endpoint alone (what is launched or called), under which protocol eras are remembered.
 */
import { createHash } from "node:crypto";
import type { ServerConfig, ServerDefinition } from "./config";

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

// What the host decides, not what answers: changing these (or the server's name) does not change
// which server software speaks at the other end. Every other key, including one added later, counts.
const HOST_SIDE_KEYS: ReadonlySet<string> = new Set<keyof ServerConfig>([
  "enabled",
  "timeout",
  "max_total_timeout",
  "connect_timeout",
  "supports_parallel_tool_calls",
  "tools",
  "sampling",
  "credentials",
]);

const endpointHashes = new WeakMap<ServerConfig, string>();

/**
 * sha256 of the canonical JSON of the config without its host-side settings: the same URL and
 * headers, or the same command, arguments, environment and sandbox, under any name.
 */
export function endpointHash(config: ServerConfig): string {
  let hash = endpointHashes.get(config);
  if (hash === undefined) {
    const endpoint = Object.fromEntries(Object.entries(config).filter(([key]) => !HOST_SIDE_KEYS.has(key)));
    hash = createHash("sha256")
      .update(JSON.stringify(canonical(endpoint)))
      .digest("hex");
    endpointHashes.set(config, hash);
  }
  return hash;
}
