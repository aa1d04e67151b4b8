"use client";
/** The user's chats: open, start a new one, rename, delete. */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ChatView, createChat, deleteChat, renameChat } from "../api-client";

/** A chat in the list. */
export type ChatListItem = Pick<ChatView, "id" | "title">;

/** The sidebar. */
export function ChatSidebar({ chats, activeId }: { chats: ChatListItem[]; activeId?: string }) {
  const router = useRouter();
  const [editing, setEditing] = useState<string | null>(null);
  const [title, setTitle] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const create = async () => {
    try {
      const chat = await createChat();
      router.push(`/chat/${chat.id}`);
      router.refresh();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  const rename = async (id: string) => {
    try {
      await renameChat(id, title);
      setEditing(null);
      router.refresh();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  const remove = async (id: string) => {
    if (!window.confirm("Delete this chat and all its messages?")) return;
    try {
      await deleteChat(id);
      if (id === activeId) router.push("/chat");
      router.refresh();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };

  return (
    <aside className="flex w-64 shrink-0 flex-col border-r border-zinc-200 dark:border-zinc-800">
      <button
        type="button"
        data-testid="new-chat"
        onClick={create}
        className="m-3 rounded bg-blue-700 px-3 py-2 text-sm font-medium text-white"
      >
        New chat
      </button>
      {problem && <p className="px-3 text-xs text-red-700">{problem}</p>}
      <ul data-testid="chat-list" className="flex-1 overflow-y-auto text-sm">
        {chats.map((chat) => (
          <li
            key={chat.id}
            data-testid="chat-item"
            data-chat-id={chat.id}
            className={`group flex items-center gap-1 px-3 py-1.5 ${chat.id === activeId ? "bg-zinc-100 dark:bg-zinc-800" : ""}`}
          >
            {editing === chat.id ? (
              <form
                className="flex flex-1 gap-1"
                onSubmit={(e) => {
                  e.preventDefault();
                  void rename(chat.id);
                }}
              >
                <input
                  aria-label="Chat title"
                  // biome-ignore lint/a11y/noAutofocus: the field appears only after the user chose Rename, to type into it
                  autoFocus
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                  className="min-w-0 flex-1 rounded border px-1 dark:bg-zinc-900"
                />
                <button type="submit" className="text-xs">
                  Save
                </button>
              </form>
            ) : (
              <>
                <Link href={`/chat/${chat.id}`} data-testid="chat-link" className="min-w-0 flex-1 truncate">
                  {chat.title}
                </Link>
                <button
                  type="button"
                  aria-label={`Rename ${chat.title}`}
                  onClick={() => {
                    setEditing(chat.id);
                    setTitle(chat.title);
                  }}
                  className="text-xs text-zinc-500 opacity-0 group-hover:opacity-100 focus:opacity-100"
                >
                  Rename
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${chat.title}`}
                  onClick={() => void remove(chat.id)}
                  className="text-xs text-red-700 opacity-0 group-hover:opacity-100 focus:opacity-100"
                >
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
        {chats.length === 0 && <li className="px-3 text-xs text-zinc-500">No chats yet.</li>}
      </ul>
    </aside>
  );
}
