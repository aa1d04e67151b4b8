/**
 * The stdio opener: launch the server as a child (through the launch wrapper: the sandbox), speak
 * over its stdin/stdout, and start again with the 2025-11-25 handshake when a 2025 server exits on
 * the protocol probe.
 */
import { SdkError, SdkErrorCode, type PriorDiscovery } from "@modelcontextprotocol/client";
import { secretValuesOf } from "../redact";
import { childEnvironment } from "./child-env";
import { createClient } from "./client-factory";
import { effectiveSettings } from "./config";
import { STDIO_PROBE_TIMEOUT_MS } from "./era";
import { ChildProcessTransport } from "./stdio-transport";
import type { OpenedTransport, TransportOpener } from "./transport-opener";

/** Open a stdio server (the config has a `command`). */
export const openStdio: TransportOpener = async (context) => {
  const { options, signal, phase, guard } = context;
  const { server, userId } = options.identity;
  const config = server.config;
  const command = config.command!;
  const settings = effectiveSettings(config);
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
    });
    context.track(transport);
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
    return await open(context.remembered);
  } catch (error) {
    // Some 2025 servers exit on a request they do not know before `initialize`: a new child, legacy.
    if (context.remembered || !isProbeFailure(error)) throw error;
    options.logger.info("protocol probe failed on stdio; starting again with the 2025-11-25 handshake", { server: server.name });
    signal.throwIfAborted();
    return await open({ kind: "legacy" });
  }
};

/** The `server/discover` probe itself failed (closed link, unusable answer): not a verdict on the server. */
function isProbeFailure(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
}
