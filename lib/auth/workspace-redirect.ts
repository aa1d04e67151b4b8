/**
 * The pre-workspace URLs (`/chat`, `/servers`, `/settings`, `/chat/:id`) keep working: they send
 * the browser to the same section of the workspace page last opened in this browser (a cookie: the
 * OAuth callback comes back from another site), else the personal one. The app's own pages link
 * to `/w/<slug>/…` directly; no Referer is read (the app sends `Referrer-Policy: no-referrer`).
 */
import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import type { Db } from "../../db/client";
import { getChatById } from "../../db/queries/chats";
import { getWorkspaceById, PERSONAL_SLUG } from "../../db/queries/workspaces";
import { requirePageUser } from "./session";
import { slugOf, workspaceForSlug } from "./workspace";

/** Same name as the client's `LAST_WORKSPACE_COOKIE` (app/_components/workspaces/workspace-scope.tsx). */
const LAST_WORKSPACE_COOKIE = "switchboard-workspace";

/** Redirect `/<section>` to `/w/<slug>/<section>` of the last workspace page opened, else the personal one. */
export async function redirectToWorkspaceSection(db: Db, section: "chat" | "servers" | "settings"): Promise<never> {
  const user = await requirePageUser(db);
  const fromCookie = (await cookies()).get(LAST_WORKSPACE_COOKIE)?.value;
  // Only a workspace the caller still belongs to; anything else falls back to their own.
  const slug = fromCookie && (await workspaceForSlug(db, user, safeDecode(fromCookie))) ? fromCookie : PERSONAL_SLUG;
  redirect(`/w/${slug}/${section}`);
}

/** Redirect `/chat/:id` to the chat's own workspace; someone else's chat stays not found. */
export async function redirectToChat(db: Db, id: string): Promise<string | null> {
  const user = await requirePageUser(db);
  const chat = await getChatById(db, { id, ownerId: user.id });
  const workspace = chat && (await getWorkspaceById(db, chat.workspaceId));
  if (!chat || !workspace || !(await workspaceForSlug(db, user, slugOf(workspace)))) return null;
  redirect(`/w/${slugOf(workspace)}/chat/${chat.id}`);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return ""; // a malformed cookie names no workspace
  }
}
