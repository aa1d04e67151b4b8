/**
 * Workspaces as every layer passes them around: a role, a workspace record and the acting user
 * inside one. They live on the domain floor because db/ and every domain above it share them.
 */

/** A role inside a workspace. */
export type WorkspaceRole = "owner" | "admin" | "member";

/** A workspace as the app sees it. `personal` is true for a user's own workspace. */
export interface WorkspaceRecord {
  id: string;
  name: string;
  slug: string | null;
  personal: boolean;
}

/** The acting user inside a workspace (what `requireWorkspace` returns). */
export interface WorkspaceActor {
  id: string;
  workspaceId: string;
  role: WorkspaceRole;
  workspace: WorkspaceRecord;
}
