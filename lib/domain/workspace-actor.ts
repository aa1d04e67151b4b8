/**
 * The acting user inside a workspace, as `requireWorkspace` resolves it. It lives on the domain
 * floor because every domain above (models, agent, workspaces, servers) takes it as an argument.
 */
import type { WorkspaceRecord, WorkspaceRole } from "../../db/queries/workspaces";

/** The acting user inside a workspace (what `requireWorkspace` returns). */
export interface WorkspaceActor {
  id: string;
  workspaceId: string;
  role: WorkspaceRole;
  workspace: WorkspaceRecord;
}
