import { getDb } from "@/db/client";
import { requirePageWorkspace, slugOf } from "@/lib/auth/workspace";
import { listChats } from "@/lib/agent/chat-service";
import { userModelResolution } from "@/lib/agent/user-model";
import { workspaceModelChoice } from "@/lib/workspaces/default-model";
import { ChatSidebar } from "@/app/_components/chat/chat-sidebar";

/** The caller's chats in this workspace; a conversation opens at /w/<slug>/chat/:id. */
export default async function WorkspaceChatIndexPage({ params }: { params: Promise<{ slug: string }> }) {
  const caller = await requirePageWorkspace((await params).slug);
  const db = getDb();
  const model = userModelResolution(db, caller.id, workspaceModelChoice(db, caller.workspaceId));
  return (
    <div className="flex h-[calc(100vh-3.25rem)]">
      <ChatSidebar chats={listChats(db, caller)} />
      <section className="flex-1 p-6">
        <h1 className="mb-2 text-xl font-semibold">Chat</h1>
        {model.ok ? (
          <p className="text-sm text-zinc-500">Start a new chat or open one from the list.</p>
        ) : (
          <p data-testid="model-missing" className="text-sm text-amber-800">
            {model.reason}{" "}
            <a href={`/w/${slugOf(caller.workspace)}/settings`} className="underline">
              Open Settings
            </a>
          </p>
        )}
      </section>
    </div>
  );
}
