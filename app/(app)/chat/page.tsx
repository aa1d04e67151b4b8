import { getDb } from "@/db/client";
import { requirePageUser } from "@/lib/auth/session";
import { listChats } from "@/lib/agent/chat-service";
import { userModelResolution } from "@/lib/agent/user-model";
import { ChatSidebar } from "@/app/_components/chat/chat-sidebar";

/** The chat list; a conversation opens at /chat/:id. */
export default async function ChatIndexPage() {
  const user = await requirePageUser();
  const db = getDb();
  const model = userModelResolution(db, user.id);
  return (
    <div className="flex h-[calc(100vh-3.25rem)]">
      <ChatSidebar chats={listChats(db, user)} />
      <section className="flex-1 p-6">
        <h1 className="mb-2 text-xl font-semibold">Chat</h1>
        {model.ok ? (
          <p className="text-sm text-zinc-500">Start a new chat or open one from the list.</p>
        ) : (
          <p data-testid="model-missing" className="text-sm text-amber-800">
            {model.reason}{" "}
            <a href="/settings" className="underline">
              Open Settings
            </a>
          </p>
        )}
      </section>
    </div>
  );
}
