"use client";
/** The user's chats: open, start a new one, rename, delete. */
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { type ChatView, createChat, deleteChat, renameChat } from "../api-client";
import { Button } from "../ui/primitives/button";
import { cn } from "../ui/primitives/cn";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/primitives/dialog";
import { Input } from "../ui/primitives/input";
import { toast } from "../ui/primitives/toast";
import { useWorkspaceSlug, workspaceHref } from "../workspaces/workspace-scope";

/** A chat in the list. */
export type ChatListItem = Pick<ChatView, "id" | "title">;

/** The chat list (beside the chat, or inside the drawer on phones). */
export function ChatSidebar({ chats, activeId, className }: { chats: ChatListItem[]; activeId?: string; className?: string }) {
  const router = useRouter();
  const ws = useWorkspaceSlug();
  const chatsHref = workspaceHref(ws, "chat");
  const [editing, setEditing] = useState<string | null>(null);
  const [title, setTitle] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ChatListItem | null>(null);

  const create = async () => {
    try {
      const chat = await createChat(ws);
      // The new page is rendered fresh, chat list included; a refresh right after would race the
      // push and could keep the browser on the current page.
      router.push(`${chatsHref}/${chat.id}`);
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  const rename = async (id: string) => {
    try {
      await renameChat(ws, id, title);
      setEditing(null);
      toast.success("Renamed");
      router.refresh();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };
  const remove = async (id: string) => {
    setDeleting(null);
    try {
      await deleteChat(ws, id);
      toast.success("Chat deleted");
      if (id === activeId) router.push(chatsHref);
      else router.refresh();
    } catch (e) {
      setProblem((e as Error).message);
    }
  };

  return (
    <aside aria-label="Chats" className={cn("shrink-0 flex-col", className)}>
      <Button data-testid="new-chat" onClick={create} className="m-3">
        New chat
      </Button>
      {problem && (
        <p role="alert" className="px-3 text-xs text-destructive">
          {problem}
        </p>
      )}
      <ul data-testid="chat-list" className="flex-1 overflow-y-auto text-sm">
        {chats.map((chat) => (
          <li
            key={chat.id}
            data-testid="chat-item"
            data-chat-id={chat.id}
            className={cn("group flex items-center gap-1 px-3 py-1.5", chat.id === activeId && "bg-muted")}
          >
            {editing === chat.id ? (
              <form
                className="flex flex-1 gap-1"
                onSubmit={(e) => {
                  e.preventDefault();
                  void rename(chat.id);
                }}
              >
                <Input
                  aria-label="Chat title"
                  autoFocus
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                  className="h-7 flex-1 px-1"
                />
                <Button type="submit" size="sm" className="h-7">
                  Save
                </Button>
              </form>
            ) : (
              <>
                <Link
                  href={`${chatsHref}/${chat.id}`}
                  data-testid="chat-link"
                  aria-current={chat.id === activeId ? "page" : undefined}
                  className="min-w-0 flex-1 truncate rounded"
                >
                  {chat.title}
                </Link>
                <button
                  type="button"
                  aria-label={`Rename ${chat.title}`}
                  onClick={() => {
                    setEditing(chat.id);
                    setTitle(chat.title);
                  }}
                  className="rounded text-xs text-muted-foreground opacity-100 md:opacity-0 md:group-hover:opacity-100 md:focus:opacity-100"
                >
                  Rename
                </button>
                <button
                  type="button"
                  aria-label={`Delete ${chat.title}`}
                  onClick={() => setDeleting(chat)}
                  className="rounded text-xs text-red-700 opacity-100 md:opacity-0 dark:text-red-400 md:group-hover:opacity-100 md:focus:opacity-100"
                >
                  Delete
                </button>
              </>
            )}
          </li>
        ))}
        {chats.length === 0 && <li className="px-3 text-xs text-muted-foreground">No chats yet.</li>}
      </ul>
      <Dialog open={!!deleting} onOpenChange={(o) => !o && setDeleting(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Delete this chat?</DialogTitle>
            <DialogDescription>“{deleting?.title}” and all its messages are deleted for good.</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="secondary" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button variant="destructive" data-testid="confirm-delete-chat" onClick={() => deleting && void remove(deleting.id)}>
              Delete
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </aside>
  );
}
