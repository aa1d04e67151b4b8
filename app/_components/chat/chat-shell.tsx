"use client";
/**
 * The chat pages' frame: the chat list beside the conversation from md up, and a drawer (a modal
 * dialog from the left) on phones, opened from the title bar. The frame fills the screen under the
 * header so the composer stays in view.
 */
import { MessageSquareIcon } from "lucide-react";
import { usePathname } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";
import { Button } from "../ui/primitives/button";
import { Dialog, DialogContent, DialogTitle } from "../ui/primitives/dialog";
import { ChatSidebar, type ChatListItem } from "./chat-sidebar";

/** The frame around one chat page. */
export function ChatShell({
  chats,
  activeId,
  title,
  children,
}: {
  chats: ChatListItem[];
  activeId?: string;
  title: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  // Opening a chat from the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the URL changes
  useEffect(() => setOpen(false), [pathname]);
  return (
    <div className="flex h-[calc(100dvh-var(--header-h))] min-h-0">
      <ChatSidebar chats={chats} activeId={activeId} className="hidden w-64 border-r border-border md:flex" />
      <section className="flex min-w-0 flex-1 flex-col">
        <div className="flex min-w-0 items-center gap-2 border-b border-border px-3 py-2">
          <Button variant="secondary" size="sm" className="md:hidden" data-testid="open-chat-list" onClick={() => setOpen(true)}>
            <MessageSquareIcon aria-hidden /> Chats
          </Button>
          {title}
        </div>
        {children}
      </section>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          data-testid="chat-drawer"
          className="top-0 left-0 h-dvh max-h-dvh w-72 max-w-[85vw] translate-x-0 translate-y-0 rounded-none p-0 pt-10"
        >
          <DialogTitle className="sr-only">Chats</DialogTitle>
          <ChatSidebar chats={chats} activeId={activeId} className="flex min-h-0 flex-1" />
        </DialogContent>
      </Dialog>
    </div>
  );
}
