"use client";
/**
 * The conversation: useChat over `/api/chat` with a transport that sends only the new turn or the
 * approval answers (the server owns history and tools), message list, composer and status strip.
 */
import { useEffect, useMemo, useRef } from "react";
import { useRouter } from "next/navigation";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import type { ChatMessage } from "@/lib/domain/chat-message";
import type { ChatRequest, UserTurn } from "@/lib/agent/chat-request";
import { DENIED_BY_USER } from "@/lib/agent/policy";
import { errorMessage } from "../api-client";
import { Composer, type ComposerProps } from "./composer";
import { useAppMessages } from "../apps/use-app-messages";
import { MessageView } from "./message-view";
import { StatusStrip } from "./status-strip";
import { HeldToolsNotice } from "./held-tools-notice";

/** Approval answers in the last assistant message that the server has not seen yet. */
function answeredApprovals(
  message: ChatMessage | undefined,
  edits: Map<string, Record<string, unknown>>,
): NonNullable<ChatRequest["approvals"]> {
  if (message?.role !== "assistant") return [];
  return message.parts.flatMap((p) =>
    p.type === "dynamic-tool" && p.state === "approval-responded"
      ? [
          {
            approvalId: p.approval.id,
            approved: p.approval.approved,
            ...(p.approval.approved && edits.has(p.approval.id) ? { input: edits.get(p.approval.id) } : {}),
          },
        ]
      : [],
  );
}

/** The chat panel for one stored chat. */
export function ChatView({
  chatId,
  initialMessages,
  modelProblem,
}: {
  chatId: string;
  initialMessages: ChatMessage[];
  modelProblem: string | null;
}) {
  const edits = useRef(new Map<string, Record<string, unknown>>());
  const router = useRouter();
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        api: "/api/chat",
        prepareSendMessagesRequest: ({ messages, body }) => {
          const approvals = answeredApprovals(messages.at(-1), edits.current);
          const request: ChatRequest = approvals.length ? { chatId, approvals } : { chatId, message: (body as { turn: UserTurn }).turn };
          return { body: request };
        },
      }),
    [chatId],
  );
  const { messages, setMessages, sendMessage, status, stop, error, addToolApprovalResponse } = useChat<ChatMessage>({
    id: chatId,
    messages: initialMessages,
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // The chat list (titles, order) is server-rendered: refresh it once an answer is stored.
    onFinish: () => router.refresh(),
  });
  const busy = status === "submitted" || status === "streaming";
  const list = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // Follow the streaming answer unless the user scrolled up to read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on purpose each time the messages change (every streamed chunk)
  useEffect(() => {
    if (pinned.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [messages]);

  const onSend: ComposerProps["onSend"] = (turn, display) => {
    const parts: ChatMessage["parts"] = display.attachments.map((a) => ({
      type: "data-resource" as const,
      data: { serverId: a.serverId, serverName: a.serverName, uri: a.uri, name: a.name, text: "" },
    }));
    if (display.prompt) {
      parts.push({
        type: "data-prompt",
        data: {
          serverId: display.prompt.serverId,
          serverName: display.prompt.serverName,
          name: display.prompt.prompt.name,
          arguments: turn.prompt?.arguments ?? {},
          messages: [],
        },
      });
    }
    if (turn.text.trim()) parts.push({ type: "text", text: turn.text });
    void sendMessage({ parts }, { body: { turn } });
  };

  useAppMessages((text) => onSend({ text, resources: [] }, { attachments: [] }));

  return (
    <div className="flex h-full min-h-0 flex-col">
      <StatusStrip />
      <HeldToolsNotice busy={busy} />
      {modelProblem && (
        <div
          data-testid="model-missing"
          role="alert"
          className="m-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {modelProblem}{" "}
          <a href="/settings" className="underline">
            Open Settings
          </a>
        </div>
      )}
      <div
        ref={list}
        data-testid="messages"
        onScroll={(e) => {
          const el = e.currentTarget;
          pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
        }}
        className="flex-1 space-y-4 overflow-y-auto p-4"
      >
        {messages.length === 0 && !modelProblem && (
          <p className="text-sm text-zinc-500">Ask something. The agent can use the tools of your MCP servers; type / for prompts.</p>
        )}
        {messages.map((m, index) => (
          <MessageView
            key={m.id}
            message={m}
            idle={!busy}
            canAnswer={index === messages.length - 1}
            onApprove={(id, input) => {
              edits.current.set(id, input);
              // Show the arguments that will actually run (the server applies the same edit).
              setMessages((all) =>
                all.map((msg) => ({
                  ...msg,
                  parts: msg.parts.map((p) =>
                    p.type === "dynamic-tool" && p.state === "approval-requested" && p.approval.id === id ? { ...p, input } : p,
                  ),
                })),
              );
              void addToolApprovalResponse({ id, approved: true });
            }}
            onDeny={(id) => void addToolApprovalResponse({ id, approved: false, reason: DENIED_BY_USER })}
          />
        ))}
        {status === "submitted" && (
          <p data-testid="chat-thinking" className="text-xs text-zinc-500">
            Thinking…
          </p>
        )}
        {error && (
          <p data-testid="chat-error" role="alert" className="text-sm text-red-700">
            {errorMessage(error.message, error.message)}
          </p>
        )}
      </div>
      <Composer busy={busy} disabled={!!modelProblem} onSend={onSend} onStop={() => void stop()} />
    </div>
  );
}
