/**
 * What the gateway needs of a server before it answers a client's handshake: the caller's own
 * (user, server) connection, opened now if it is not, and what that connection negotiated.
 */
import "server-only";
import type { Icon } from "@modelcontextprotocol/server";
import { getDb } from "../../../db/client";
import type { ServerDefinition } from "../../mcp";
import { secretValuesOf } from "../../redact";
import { appPool, workspaceServerDefinitions } from "../../runtime/engine";
import { capText } from "../../trust/untrusted-text";
import { gatewayIcons } from "./icons";

/** The upstream as the proxy presents it: its capabilities (null when not connected), name, instructions. */
export interface UpstreamHandshake {
  capabilities: Record<string, unknown> | null;
  /** The era the member's connection negotiated with the upstream (null when not connected). */
  era: "legacy" | "modern" | null;
  serverInfo: { name: string; version: string; icons?: Icon[] };
  instructions?: string;
  /** The server config's secret values, redacted from what the proxy hands its client (results.ts). */
  secrets: string[];
  /** The server's config, whose sampling policy the relay of its questions applies (client-questions.ts). */
  config: ServerDefinition["config"];
}

// The same bound the inspector puts on a server's instructions (lib/use-cases/server-ops.ts).
const INSTRUCTIONS_MAX = 8000;

/** The server named `name` in the caller's workspace, as the caller's engine definition, or null. */
export async function serverByName(caller: { id: string; workspaceId: string }, name: string): Promise<ServerDefinition | null> {
  return (await workspaceServerDefinitions(getDb(), caller)).find((server) => server.name === name) ?? null;
}

/**
 * Connect the caller's connection if needed (waiting as a page does) and read its handshake. A
 * server that cannot be reached now is not an error here: the proxy still answers the handshake,
 * and each request then says why (needs authorization, failed, still connecting).
 */
export async function upstreamHandshake(caller: { id: string }, server: ServerDefinition): Promise<UpstreamHandshake> {
  const session = appPool().session(caller.id, server);
  await session.requireConnectedWithin().catch(() => undefined);
  const details = session.details();
  const status = session.status();
  const version = status.serverInfo?.version ?? "";
  const icons = gatewayIcons(status.serverInfo?.icons);
  return {
    capabilities: details?.capabilities ?? null,
    era: status.protocol?.era ?? null,
    // The name configured in Switchboard, never the one the server declares for itself (as for the chat);
    // its icons only as checked raster data (icons.ts).
    serverInfo: { name: server.name, version, ...(icons.length ? { icons } : {}) },
    ...(details?.instructions ? { instructions: capText(details.instructions, INSTRUCTIONS_MAX) } : {}),
    secrets: secretValuesOf(server.config),
    config: server.config,
  };
}
