/**
 * Whom a server's sampling request is answered for, on which model, and whether a person reviews
 * it (docs/configuration.md#sampling). The model is the one the user chats with in the server's
 * workspace: their own choice, else the workspace default, else the instance's — as the chat
 * resolves it. `sampling.review: false` is only a request: it holds on servers an instance
 * administrator created, and on others only when the instance allows it.
 */
import type { Db } from "../../db/client";
import { getServerByIdUnscoped } from "../../db/queries/servers";
import { getUserById } from "../../db/queries/users";
import { getMembershipRole } from "../../db/queries/workspaces";
import { type EnvBag, environment } from "../env";
import type { ModelConfig } from "../models/model-config";
import { userModelResolution } from "../models/user-model";
import type { ServerConfig } from "../mcp";
import { workspaceModelChoice } from "../models/workspace-default";

/** Whose servers may skip the review (`SWITCHBOARD_SAMPLING_REVIEW_OPTIONAL_FOR`). */
export type ReviewOptionalFor = "admins" | "everyone" | "nobody";

/** `SWITCHBOARD_SAMPLING_REVIEW_OPTIONAL_FOR`: `admins` (default), `everyone` or `nobody`. */
export function reviewOptionalFor(env: EnvBag = environment()): ReviewOptionalFor {
  const value = env.SWITCHBOARD_SAMPLING_REVIEW_OPTIONAL_FOR?.trim().toLowerCase();
  return value === "everyone" || value === "nobody" ? value : "admins";
}

/**
 * Whether the user reviews a request. A server's `review: false` holds only when its creator is an
 * instance administrator now (not merely a workspace admin: every user owns their personal
 * workspace, and a team admin must not switch off reviews of members' own models), or when the
 * instance lets everyone's servers skip it.
 */
export function reviewRequired(input: {
  configured: boolean | undefined;
  creatorIsAdmin: boolean;
  optionalFor: ReviewOptionalFor;
}): boolean {
  if (input.configured !== false) return true;
  if (input.optionalFor === "everyone") return false;
  return !(input.optionalFor === "admins" && input.creatorIsAdmin);
}

/** How to answer one sampling request, or why it is refused. */
export type SamplingAccess = { ok: true; model: ModelConfig; review: boolean; workspaceId: string } | { ok: false; reason: string };

/** Resolve the model and the review for `userId`'s connection to the stored server `serverId`. */
export async function samplingAccess(
  db: Db,
  userId: string,
  server: { id: string; config: ServerConfig },
  env: EnvBag = environment(),
): Promise<SamplingAccess> {
  const record = await getServerByIdUnscoped(db, server.id);
  if (!record) return { ok: false, reason: "the server is not stored in this instance" };
  // A connection outliving a removal must not spend the workspace's model or anyone's key.
  if (!(await getMembershipRole(db, record.workspaceId, userId)))
    return { ok: false, reason: "you are not a member of this server's workspace" };
  const resolution = await userModelResolution(db, userId, workspaceModelChoice(db, record.workspaceId));
  if (!resolution.ok) return { ok: false, reason: `No model is configured for sampling: ${resolution.reason}` };
  const creatorIsAdmin = !!record.createdBy && (await getUserById(db, record.createdBy))?.isAdmin === true;
  const review = reviewRequired({ configured: server.config.sampling?.review, creatorIsAdmin, optionalFor: reviewOptionalFor(env) });
  return { ok: true, model: resolution.config, review, workspaceId: record.workspaceId };
}
