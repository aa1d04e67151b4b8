/**
 * What must happen outside the database when someone loses access to a workspace's servers: the
 * host implements it with the live engine pool, the OAuth store and the running chat turns.
 */
import type { ServerDefinition } from "../mcp/config";

/** Side effects of a removal, a role change, a disabled account or a deleted workspace. */
export interface AccessEffects {
  /** Close the user's live connections to these servers now (every user's when `userId` is null; all servers when `serverIds` is omitted). */
  closeConnections(userId: string | null, serverIds?: string[]): Promise<void>;
  /** Delete the user's own tokens for these servers, revoking them where the server supports it. */
  forgetTokens(userId: string, servers: ServerDefinition[]): Promise<void>;
  /**
   * Stop the user's running chat turns in the workspace (every user's when `userId` is null, every
   * workspace's when `workspaceId` is null), and deny their open approvals there: awaited, so the
   * caller answers once nothing of theirs waits any more.
   */
  stopTurns(userId: string | null, workspaceId: string | null): Promise<void>;
}

/** Effects that do nothing: for callers with no live engine (the command line, some tests). */
export const NO_EFFECTS: AccessEffects = {
  closeConnections: async () => {},
  forgetTokens: async () => {},
  stopTurns: async () => {},
};
