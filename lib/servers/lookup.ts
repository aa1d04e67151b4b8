/**
 * The one way to find a server of the caller's workspace by id: a server of another workspace is
 * answered exactly like one that does not exist (404), so ids cannot be probed across workspaces.
 */
import type { Db } from "../../db/client";
import { getServerById, type ServerRecord } from "../../db/queries/servers";
import { AppError } from "../errors";

/** One server of the actor's workspace, or `server.not_found` (404). */
export async function getServer(db: Db, actor: { workspaceId: string }, id: string): Promise<ServerRecord> {
  const record = await getServerById(db, { id, workspaceId: actor.workspaceId });
  if (!record) throw new AppError("server.not_found", "No such server.");
  return record;
}
