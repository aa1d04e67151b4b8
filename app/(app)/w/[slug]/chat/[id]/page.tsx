import { notFound } from "next/navigation";
import { getDb } from "@/db/client";
import { getChatById } from "@/db/queries/chats";
import { listMessagesByChat } from "@/db/queries/messages";
import { requirePageWorkspace } from "@/lib/auth/workspace";
import { listChats } from "@/lib/agent/chat-service";
import { userModelResolution } from "@/lib/models/user-model";
import { workspaceModelChoice } from "@/lib/models/workspace-default";
import { ChatShell } from "@/app/_components/chat/chat-shell";
import { ChatView } from "@/app/_components/chat/chat-view";

/** One conversation of its author in this workspace; anyone else gets a 404. */
export default async function WorkspaceChatPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  const caller = await requirePageWorkspace(slug);
  const db = getDb();
  const chat = getChatById(db, { id, ownerId: caller.id });
  if (!chat || chat.workspaceId !== caller.workspaceId) notFound();
  const model = userModelResolution(db, caller.id, workspaceModelChoice(db, caller.workspaceId));
  return (
    <ChatShell
      chats={listChats(db, caller)}
      activeId={chat.id}
      title={
        <h1 data-testid="chat-title" className="min-w-0 truncate font-semibold">
          {chat.title}
        </h1>
      }
    >
      <ChatView
        key={chat.id}
        chatId={chat.id}
        initialMessages={listMessagesByChat(db, chat.id)}
        modelProblem={model.ok ? null : model.reason}
      />
    </ChatShell>
  );
}
