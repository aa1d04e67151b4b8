"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { ChatRequest } from "@/lib/agent/chat-request";
import { ApiError, apiErrorOf, createChat, workspaceApiPath } from "../api-client";
import { isAccessCode, reportAccessLoss } from "../access/access-events";
import { draftKey, writeDraft } from "../access/drafts";
import { toast } from "../ui/primitives/toast";
import { useWorkspaceSlug, workspaceHref } from "../workspaces/workspace-scope";
import { Composer, type ComposerProps } from "./composer";

/**
 * The chat landing page's composer: sending creates the chat, starts the turn and opens the chat,
 * which rejoins the running answer (the turn runs on the server whatever the page does), so a
 * person can start typing without pressing New chat first (on a phone it sits a drawer away).
 * The draft stays until the server has taken the turn.
 */
export function LandingComposer({ disabled }: { disabled: boolean }) {
  const ws = useWorkspaceSlug();
  const router = useRouter();
  const [restore, setRestore] = useState(0);
  const sending = useRef(false);
  const landing = draftKey(ws, null);

  const start = async (turn: ChatRequest["message"]) => {
    const chat = await createChat(ws);
    const request: ChatRequest = { chatId: chat.id, message: turn };
    const response = await fetch(workspaceApiPath(ws, "chat"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    if (!response.ok) {
      const error = apiErrorOf(response.status, await response.text(), `Sending failed (${response.status}).`);
      reportAccessLoss(error.code, error.message);
      throw error;
    }
    // The user's message is stored before the answer streams: the chat page shows it and rejoins the answer.
    writeDraft(landing, "");
    router.push(`${workspaceHref(ws, "chat")}/${encodeURIComponent(chat.id)}`);
  };

  const onSend: ComposerProps["onSend"] = (turn) => {
    if (sending.current) return;
    sending.current = true;
    start(turn).catch((error: unknown) => {
      sending.current = false;
      setRestore((n) => n + 1);
      // Lost access has its own notice; anything else is said here.
      if (!(error instanceof ApiError) || !isAccessCode(error.code)) toast.error((error as Error).message);
    });
  };

  return <Composer busy={false} disabled={disabled} onSend={onSend} onStop={() => {}} draftKey={landing} restoreDraft={restore} />;
}
