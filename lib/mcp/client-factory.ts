/**
 * Builds the SDK `Client` for one (user, server): clientInfo "switchboard", the capabilities we
 * really support, and the handlers for elicitation, logging and list_changed notifications.
 */
import { Client, type LoggingMessageNotification } from "@modelcontextprotocol/client";
import type { ServerDefinition } from "./config";
import type { ListKind } from "./discovery";
import type { ElicitationHandler, LoggingMessageHandler } from "./types";
import type { SamplingGate } from "./sampling";
import { MCP_APPS_CAPABILITY } from "./apps";
import { rootsOf } from "./roots";

/** Handlers the client forwards to the host. */
export interface ClientHooks {
  userId: string;
  server: ServerDefinition;
  clientVersion: string;
  onElicitation?: ElicitationHandler;
  onLoggingMessage?: LoggingMessageHandler;
  onListChanged: (kind: ListKind) => void;
  /** Every `notifications/message`, before the host's handler (the connection's log buffer). */
  onLogEntry?: (params: LoggingMessageNotification["params"]) => void;
  /** `notifications/resources/updated` for a subscribed resource. */
  onResourceUpdated?: (uri: string) => void;
  /** The server's sampling policy in front of the host's LLM; declared only when it is offered. */
  samplingGate?: SamplingGate;
  /** Bound on the `server/discover` probe; default the connect request's timeout. */
  probeTimeoutMs?: number;
}

/**
 * A fresh SDK client. Elicitation and sampling are declared only when the host can answer them
 * (and sampling only when the server's policy enables it); roots always (the shared read-only paths).
 */
export function createClient(hooks: ClientHooks): Client {
  const { onElicitation, onLoggingMessage, userId, server, samplingGate } = hooks;
  const client = new Client(
    { name: "switchboard", version: hooks.clientVersion },
    {
      capabilities: {
        roots: { listChanged: false },
        ...(onElicitation ? { elicitation: { form: {}, url: {} } } : {}),
        // `sampling.tools`: servers may offer their own tools in a sampling request (lib/mcp/sampling-tools.ts).
        ...(samplingGate?.offered ? { sampling: samplingGate.policy.max_tool_rounds > 0 ? { tools: {} } : {} } : {}),
        // MCP Apps: servers may link tools to ui:// apps, which the host renders sandboxed (docs/mcp-apps.md).
        extensions: MCP_APPS_CAPABILITY,
      },
      // 2026-07-28 when the server offers it, the 2025-11-25 handshake otherwise (docs/protocol.md),
      // or that handshake only for a server held to it (`protocol: "2025-11-25"`).
      versionNegotiation:
        server.config.protocol === "2025-11-25"
          ? { mode: "legacy" }
          : { mode: "auto", ...(hooks.probeTimeoutMs ? { probe: { timeoutMs: hooks.probeTimeoutMs } } : {}) },
    },
  );
  client.setRequestHandler("roots/list", () => ({ roots: rootsOf(server.config) }));
  if (samplingGate?.offered) {
    client.setRequestHandler("sampling/createMessage", (request, ctx) => samplingGate.handle(request.params, ctx.mcpReq.signal));
  }
  if (onElicitation) {
    client.setRequestHandler("elicitation/create", (request, ctx) => onElicitation(userId, server, request.params, ctx.mcpReq.signal));
  }
  client.setNotificationHandler("notifications/message", (notification) => {
    hooks.onLogEntry?.(notification.params);
    onLoggingMessage?.(userId, server, notification.params);
  });
  client.setNotificationHandler("notifications/resources/updated", (notification) => hooks.onResourceUpdated?.(notification.params.uri));
  client.setNotificationHandler("notifications/tools/list_changed", () => hooks.onListChanged("tools"));
  client.setNotificationHandler("notifications/resources/list_changed", () => hooks.onListChanged("resources"));
  client.setNotificationHandler("notifications/prompts/list_changed", () => hooks.onListChanged("prompts"));
  return client;
}
