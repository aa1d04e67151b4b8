/**
 * The order of lib/'s layers, bottom first (docs/architecture.md#layers). A layer may import any
 * layer below it and none above: `.dependency-cruiser.cjs` turns every (lower, upper) pair into
 * one forbidden rule, and tests/integration/boundaries/domain-order.test.ts breaks each rule once.
 * A folder names everything under it; `lib/http.ts` is a single module.
 */
const DOMAIN_ORDER = [
  { path: "lib/cluster", why: "what the replicas share: Redis in cluster mode, this process's memory otherwise" },
  { path: "lib/telemetry", why: "spans and metrics for operators: every layer above reports through it, it reports to none" },
  { path: "lib/net", why: "the SSRF-guarded network: every outbound request goes through it" },
  { path: "lib/mcp", why: "the MCP engine, shared with the command line" },
  { path: "lib/quotas", why: "per-user and instance counters the engine and the domains consult" },
  { path: "lib/security", why: "request policy, hashing and client addresses, used by every domain" },
  { path: "lib/usage", why: "usage records, prices and budgets: the chat, sampling and the engine's hook record through it" },
  { path: "lib/oauth", why: "OAuth for MCP servers, on top of the engine and the network" },
  { path: "lib/http.ts", why: "the route wrapper and error responses every route and the lane share" },
  { path: "lib/models", why: "model settings and providers: what the agent and sampling run on" },
  { path: "lib/servers", why: "saved servers, their secrets and credential modes" },
  { path: "lib/catalog", why: "the server catalog: server.json entries, registry sync, configs generated from an entry" },
  { path: "lib/trust", why: "tool pins, policies and the tool gate over the servers' tools" },
  { path: "lib/agent", why: "the chat agent: it runs tools through the trust gate" },
  { path: "lib/workspaces", why: "workspaces, members and invitations" },
  { path: "lib/auth", why: "who is calling: sessions and the caller's workspace" },
  { path: "lib/oauth-server", why: "Switchboard as the gateway's OAuth authorization server: oidc-provider over the database" },
  { path: "lib/apps", why: "MCP Apps: server UIs that call tools through the agent's gate" },
  { path: "lib/runtime", why: "process wiring: the engine pool, brokers, event hub and turn registry" },
  { path: "lib/use-cases", why: "the composition layer the routes call; it binds the database and the pool" },
];

/** The regular expression for everything a layer names. */
function layerPattern(layer) {
  const escaped = layer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return layer.endsWith(".ts") ? `^${escaped}$` : `^${escaped}/`;
}

/** The rule name for "`lower` must not import `upper`". */
function orderRuleName(lower, upper) {
  const short = (layer) => layer.replace(/^lib\//, "").replace(/\.ts$/, "");
  return `layer-order:${short(lower)}-below-${short(upper)}`;
}

module.exports = { DOMAIN_ORDER, layerPattern, orderRuleName };
