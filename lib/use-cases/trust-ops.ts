/**
 * The tool-trust operations behind `/api/servers/:id/trust`, `/api/servers/:id/tools/review` and
 * `/api/tools/held`: each resolves the server inside the caller's workspace (404 otherwise) and
 * calls lib/trust (docs/tool-trust.md).
 */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import type { TrustActor } from "../trust/permissions";
import {
  changeServerTrust,
  reviewHeldTool,
  serverTrustView,
  type toolReviewSchema,
  type trustUpdateSchema,
  workspaceHeldTools,
} from "../trust/trust-service";
import { appPool, workspaceServerDefinition, workspaceServerDefinitions } from "../runtime/engine";

export { toolReviewSchema, trustUpdateSchema } from "../trust/trust-service";

/** Trust settings, whether the caller may change them, and the held tools (`refresh`: list first). */
export async function serverTrust(caller: TrustActor, serverId: string, refresh: boolean) {
  const db = getDb();
  return serverTrustView(db, appPool(), caller, await workspaceServerDefinition(db, caller, serverId), refresh);
}

/** Mark the server trusted or not, or switch its lethal-trifecta check (owners/admins; audited). */
export async function setServerTrust(caller: TrustActor, serverId: string, change: z.infer<typeof trustUpdateSchema>) {
  return await changeServerTrust(getDb(), caller, serverId, change);
}

/** Approve the reviewed definition of a held tool (owners/admins; audited). */
export async function approveHeldTool(caller: TrustActor, serverId: string, body: z.infer<typeof toolReviewSchema>): Promise<void> {
  await reviewHeldTool(getDb(), caller, serverId, body);
}

/** Held tools across the caller's workspace, from the stored pins (no connection). */
export async function heldTools(caller: TrustActor) {
  const db = getDb();
  return { held: await workspaceHeldTools(db, await workspaceServerDefinitions(db, caller)) };
}
