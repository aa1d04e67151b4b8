/**
 * The stdio opener: launch the server as a child (through the launch wrapper: the sandbox), speak
 * over its stdin/stdout, and start again with the 2025-11-25 handshake when a 2025 server exits on
 * the protocol probe. With a placement (several processes serve the instance: lib/mcp/placement.ts)
 * the child starts only under this process's hold on it; when another process holds it, the
 * connection is a relay to that process instead.
 */
import { SdkError, SdkErrorCode, type PriorDiscovery, type Transport } from "@modelcontextprotocol/client";
import { secretValuesOf } from "../redact";
import { childEnvironment } from "./child-env";
import { createClient } from "./client-factory";
import { effectiveSettings } from "./config";
import { STDIO_PROBE_TIMEOUT_MS } from "./era";
import { EngineError, isEngineError } from "./errors";
import type { ListKind } from "./discovery";
import type { PlacementHold, StdioPlacement } from "./placement";
import { ChildProcessTransport } from "./stdio-transport";
import type { OpenContext, OpenedTransport, TransportOpener } from "./transport-opener";

/** Open a stdio server (the config has a `command`): here, or through a relay to the process that runs it. */
export const openStdio: TransportOpener = async (context) => {
  const placement = context.options.transport.placement;
  if (!placement) return await openChild(context, null);
  const { userId, server } = context.options.identity;
  // A holder that let go between the placement and the handshake (its sandbox idled out): place again, once.
  for (let attempt = 0; ; attempt++) {
    const placed = await placement.place(userId, server, context.signal);
    if (placed.where === "here") return await openChild(withListsShared(context, placement), placed.hold);
    try {
      return await openRelay(context, placed.transport);
    } catch (error) {
      if (attempt > 0 || !isEngineError(error, "session_expired")) throw error;
    }
  }
};

/** Launch the child (under `hold` when there is a placement) and connect to it. */
async function openChild(context: OpenContext, hold: PlacementHold | null): Promise<OpenedTransport> {
  const { options, signal, phase, guard } = context;
  const { server, userId } = options.identity;
  const config = server.config;
  const command = config.command!;
  const settings = effectiveSettings(config);
  const children = new HeldChildren(hold);
  const open = async (prior: PriorDiscovery | undefined): Promise<OpenedTransport> => {
    const launch = await options.transport.launchWrapper(
      { command, args: config.args ?? [], env: childEnvironment(config.env), cwd: config.cwd },
      { userId, serverId: server.id, serverName: server.name, config },
    );
    // The pool may have given up on this attempt while the wrapper prepared the sandbox.
    signal.throwIfAborted();
    const transport = new ChildProcessTransport({
      launch,
      maxMessageBytes: options.limits.maxMessageBytes,
      maxJsonDepth: options.limits.maxJsonDepth,
      maxJsonMembers: options.limits.maxJsonMembers,
      stderrBytes: options.limits.stderrBytes,
      killGraceMs: options.limits.killGraceMs,
      logger: options.logger,
      secrets: secretValuesOf(config),
      requestMeta: options.transport.requestMeta,
      afterEnd: children.started(),
    });
    context.track(transport);
    if (!children.watch(transport)) {
      throw new EngineError("not_connected", `server "${server.name}" was placed on another process while it was starting; try again`);
    }
    phase.watchChild(transport);
    const client = createClient({
      ...options.identity,
      ...options.hooks,
      probeTimeoutMs: Math.min(STDIO_PROBE_TIMEOUT_MS, settings.connectTimeoutMs),
    });
    await context.connect(client, transport, prior);
    return { client, transport, kind: "stdio", guard };
  };
  try {
    try {
      return await open(context.remembered);
    } catch (error) {
      // Some 2025 servers exit on a request they do not know before `initialize`: a new child, legacy.
      if (context.remembered || !isProbeFailure(error)) throw error;
      options.logger.info("protocol probe failed on stdio; starting again with the 2025-11-25 handshake", { server: server.name });
      signal.throwIfAborted();
      return await open({ kind: "legacy" });
    }
  } finally {
    // No further child starts under this hold: it is given back once the last one has ended.
    children.settled();
  }
}

/** `context` whose server's list changes are also told to the placement (for the relays to it elsewhere). */
function withListsShared(context: OpenContext, placement: StdioPlacement): OpenContext {
  const { options } = context;
  if (!placement.listChanged) return context;
  const { userId, server } = options.identity;
  const onListChanged = (kind: ListKind) => {
    options.hooks.onListChanged(kind);
    placement.listChanged?.(userId, server.id, kind);
  };
  return { ...context, options: { ...options, hooks: { ...options.hooks, onListChanged } } };
}

/** Connect over a relay to the process that runs the server (the handshake its connection answers). */
async function openRelay(context: OpenContext, transport: Transport): Promise<OpenedTransport> {
  const { options, guard } = context;
  context.track(transport);
  const client = createClient({ ...options.identity, ...options.hooks });
  // The holder answers `initialize` from its own connection; the era it learnt is its child's, not the relay's.
  await context.connect(client, transport, { kind: "legacy" }, { rememberEra: false });
  return { client, transport, kind: "relay", guard };
}

/**
 * The children one connect attempt starts under a hold (a second one after a failed protocol probe):
 * the hold is given back once the attempt is over and the last of them has ended, and a lost hold
 * stops every one still running.
 */
class HeldChildren {
  private alive = 0;
  private done = false;
  private released: Promise<void> | null = null;
  private lost = false;
  private readonly running = new Set<ChildProcessTransport>();

  constructor(private readonly hold: PlacementHold | null) {
    // Lost: another process may start it now, so none of ours may go on (the connection sees it end).
    void hold?.lost.then(() => {
      this.lost = true;
      for (const transport of this.running) void transport.close();
    });
  }

  /** Count one more child; answers its `afterEnd`. */
  started(): (() => Promise<void>) | undefined {
    if (!this.hold) return undefined;
    this.alive++;
    return () => {
      this.alive--;
      return this.releaseIfOver();
    };
  }

  /** Stop `transport` when the hold is lost; false when it already was (the child must not start). */
  watch(transport: ChildProcessTransport): boolean {
    if (!this.hold) return true;
    this.running.add(transport);
    return !this.lost;
  }

  /** The attempt is over: no child starts after this. */
  settled(): void {
    this.done = true;
    void this.releaseIfOver();
  }

  private releaseIfOver(): Promise<void> {
    if (!this.hold || this.alive > 0 || !this.done) return Promise.resolve();
    this.running.clear();
    this.released ??= this.hold.release();
    return this.released;
  }
}

/** The `server/discover` probe itself failed (closed link, unusable answer): not a verdict on the server. */
function isProbeFailure(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
}
