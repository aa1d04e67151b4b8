/**
 * Connections pinned to checked addresses (docs/security.md#ssrf-guard: no DNS-rebinding gap): each undici Agent
 * serves one host name and its `connect.lookup` answers only with the addresses the policy
 * approved, so the socket cannot reach anything a second resolution would have returned.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { Agent, buildConnector } from "undici";
import { normalizeHostname } from "./address-policy";
import type { IpAddress } from "./ip-literal";
import type { CheckedTarget } from "./target-check";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup`-compatible function that never resolves: it returns `addresses` for
 * `hostname` and fails for any other name.
 */
export function pinnedLookup(hostname: string, addresses: readonly IpAddress[]) {
  return (name: string, options: LookupOptions | number | undefined, callback: LookupCallback): void => {
    const opts: LookupOptions = typeof options === "number" ? { family: options } : (options ?? {});
    if (normalizeHostname(name) !== hostname) {
      const error: NodeJS.ErrnoException = new Error(`pinned lookup for ${hostname} asked for ${name}`);
      error.code = "ENOTFOUND";
      callback(error, []);
      return;
    }
    const wanted = opts.family === 4 || opts.family === "IPv4" ? 4 : opts.family === 6 || opts.family === "IPv6" ? 6 : 0;
    const matching = addresses.filter((a) => wanted === 0 || a.family === wanted);
    if (matching.length === 0) {
      const error: NodeJS.ErrnoException = new Error(`no IPv${wanted} address checked for ${hostname}`);
      error.code = "ENOTFOUND";
      callback(error, []);
      return;
    }
    if (opts.all)
      callback(
        null,
        matching.map((a) => ({ address: a.text, family: a.family })),
      );
    else callback(null, matching[0].text, matching[0].family);
  };
}

/**
 * An undici connector that only ever connects `hostname`, through pinnedLookup. Node skips
 * `lookup` for IP-literal hosts, so the host check here is what stops an agent from being
 * pointed anywhere else (say by a redirect that bypassed the policy).
 */
export function pinnedConnector(hostname: string, addresses: readonly IpAddress[]): buildConnector.connector {
  const connect = buildConnector({ lookup: pinnedLookup(hostname, addresses) });
  return (options, callback) => {
    if (normalizeHostname(options.hostname) !== hostname) {
      callback(new Error(`connection pinned to ${hostname} refused for ${options.hostname}`), null);
      return;
    }
    return connect(options, callback);
  };
}

/** The cache key of a checked target: its host name and the exact addresses approved for it. */
export function pinnedKey(target: CheckedTarget): string {
  return `${target.hostname}\n${target.addresses.map((a) => a.text).join(",")}`;
}

/**
 * Agents by key, most recently used last; beyond `max` the least recently used one is handed to
 * `retire`, which lets its in-flight requests (a streaming SSE body) finish. Shared by the undici
 * agents here and the Node agents of the request lane (node-request.ts).
 */
export class AgentCache<A> {
  private readonly agents = new Map<string, A>();

  constructor(
    private readonly retire: (agent: A) => void,
    private readonly max = 32,
  ) {}

  /** The agent under `key`, made by `create` the first time. */
  get(key: string, create: () => A): A {
    let agent = this.agents.get(key);
    if (agent) {
      // Refresh recency so busy hosts are not the ones evicted.
      this.agents.delete(key);
      this.agents.set(key, agent);
      return agent;
    }
    agent = create();
    this.agents.set(key, agent);
    if (this.agents.size > this.max) {
      const [oldestKey, oldest] = this.agents.entries().next().value as [string, A];
      this.agents.delete(oldestKey);
      this.retire(oldest);
    }
    return agent;
  }

  /** Forget every agent and return them, for the caller to close. */
  clear(): A[] {
    const agents = [...this.agents.values()];
    this.agents.clear();
    return agents;
  }
}

/** Options for the agent cache. */
export interface PinnedAgentPoolOptions {
  /** Most agents kept for connection reuse; the oldest is closed gracefully beyond it. Default 32. */
  maxAgents?: number;
}

/**
 * Agents keyed by host name plus the exact checked address set: a request reuses pooled
 * connections only when its fresh check approved the same addresses.
 */
export class PinnedAgentPool {
  private readonly agents: AgentCache<Agent>;

  constructor(options: PinnedAgentPoolOptions = {}) {
    // close() lets in-flight requests (a streaming SSE body) finish; it only refuses new ones.
    this.agents = new AgentCache((agent) => void agent.close(), options.maxAgents ?? 32);
  }

  /** The agent that connects `target.hostname` only to `target.addresses`. */
  agentFor(target: CheckedTarget): Agent {
    return this.agents.get(pinnedKey(target), () => new Agent({ connect: pinnedConnector(target.hostname, target.addresses) }));
  }

  /** Close every agent gracefully (open streams finish first). */
  async close(): Promise<void> {
    await Promise.all(this.agents.clear().map((a) => a.close()));
  }
}
