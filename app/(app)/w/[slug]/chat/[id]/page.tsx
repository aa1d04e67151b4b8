import { notFound } from "next/navigation";
import { requirePageWorkspace } from "@/lib/use-cases/caller";
import { chatPage } from "@/lib/use-cases/chats";
import { ChatShell } from "@/app/_components/chat/chat-shell";
import { ChatView } from "@/app/_components/chat/chat-view";

/** One conversation of its author in this workspace; anyone else gets a 404. */
export default async function WorkspaceChatPage({ params }: { params: Promise<{ slug: string; id: string }> }) {
  const { slug, id } = await params;
  const caller = await requirePageWorkspace(slug);
  const page = await chatPage(caller, id);
  if (!page) notFound();
  const { chat, model } = page;
  return (
    <ChatShell
      chats={page.chats}
      activeId={chat.id}
      title={
        <h1 data-testid="chat-title" className="min-w-0 truncate font-semibold">
          {chat.title}
        </h1>
      }
    >
      <ChatView key={chat.id} chatId={chat.id} initialMessages={page.messages} modelProblem={model.ok ? null : model.reason} />
    </ChatShell>
  );
}
