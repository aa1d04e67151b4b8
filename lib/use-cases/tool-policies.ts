/** The caller's tool approval policies over the workspace's servers (the Settings page). */
import "server-only";
import type { z } from "zod";
import { getDb } from "../../db/client";
import { listToolPolicyRows, updateToolPolicy, type toolPolicyUpdateSchema } from "../trust/tool-policy-service";
import type { TrustActor } from "../trust/permissions";
import { appPool, workspaceServerDefinitions } from "../runtime/engine";

export { toolPolicyUpdateSchema } from "../trust/tool-policy-service";

/** Every tool of the workspace's servers with the caller's policy. */
export async function toolPolicies(caller: TrustActor) {
  const db = getDb();
  return listToolPolicyRows(db, appPool(), caller, await workspaceServerDefinitions(db, caller));
}

/** Set one tool's policy for the caller (or `null` for the default). */
export async function setToolPolicy(caller: TrustActor, input: z.infer<typeof toolPolicyUpdateSchema>): Promise<void> {
  const db = getDb();
  await updateToolPolicy(db, caller, await workspaceServerDefinitions(db, caller), input);
}
