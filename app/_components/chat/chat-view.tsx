"use client";
/**
 * The conversation: useChat over `/api/chat` with a transport that sends only the new turn, the
 * approval answers or a retry (the server owns history and tools), message list, composer and
 * status strip. A turn runs on the server whatever this page does: on mount the view rejoins a
 * running answer (`GET /api/chat/:id/stream`, replayed from its start), as it does when a stream
 * breaks mid-answer, and Stop asks the server to stop it (docs/chat.md#runs-that-survive-navigation).
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import type { ChatMessage } from "@/lib/domain/chat-message";
import type { ChatRequest, UserTurn } from "@/lib/agent/chat-request";
import { DENIED_BY_USER } from "@/lib/trust/policy";
import { metadataOf } from "@/lib/domain/chat-message";
import { errorMessage, type ServerStatusView, workspaceApiPath } from "../api-client";
import { AuthorizationBanner } from "./authorization-banner";
import { toast } from "../ui/primitives/toast";
import { useWorkspaceSlug, workspaceHref } from "../workspaces/workspace-scope";
import { COMPOSER_INPUT_ID, Composer, type ComposerProps } from "./composer";
import { useAppMessages } from "../apps/use-app-messages";
import { MessageView } from "./message-view";
import { StatusStrip } from "./status-strip";
import { HeldToolsNotice } from "./held-tools-notice";
import { accessCodeOf, reportAccessLossInBody } from "../access/access-events";
import { clearSentDraft, draftKey } from "../access/drafts";

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

/** How often a broken stream is rejoined before the page settles for the stored transcript (about 12 s in all). */
const REJOIN_ATTEMPTS = 8;

/** The plain text of a message (what Copy copies and Edit starts from). */
function textOfMessage(message: ChatMessage): string {
  return message.parts
    .flatMap((p) => (p.type === "text" ? [p.text] : []))
    .join("\n\n")
    .trim();
}

function copyMessage(message: ChatMessage) {
  const text = textOfMessage(message);
  if (!navigator.clipboard) {
    toast.error("Copying is not available here.");
    return;
  }
  navigator.clipboard.writeText(text).then(
    () => toast.success("Copied"),
    () => toast.error("Could not copy."),
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
  const ws = useWorkspaceSlug();
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatMessage>({
        // Resuming reads `${api}/<chatId>/stream`: the same workspace's path.
        api: workspaceApiPath(ws, "chat"),
        prepareSendMessagesRequest: ({ messages, body, trigger }) => {
          if (trigger === "regenerate-message") return { body: { chatId, regenerate: true } satisfies ChatRequest };
          const approvals = answeredApprovals(messages.at(-1), edits.current);
          const extra = body as { turn: UserTurn; replaceLast?: boolean };
          const request: ChatRequest = approvals.length
            ? { chatId, approvals }
            : { chatId, message: extra.turn, ...(extra.replaceLast ? { replaceLast: true } : {}) };
          return { body: request };
        },
      }),
    [ws, chatId],
  );
  // A stream that broke mid-answer (the replica serving it went away, the network dropped) is rejoined.
  const rejoin = useRef({ running: false, failed: false });
  const { messages, setMessages, sendMessage, regenerate, resumeStream, status, stop, error, addToolApprovalResponse } =
    useChat<ChatMessage>({
      id: chatId,
      messages: initialMessages,
      transport,
      // Rejoin an answer still running on the server (the page was left or reloaded mid-answer).
      resume: true,
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
      // The chat list (titles, order) is server-rendered: refresh it once an answer is stored. Not
      // after a refused turn: the page stays as it is, with the text back in the field. Not on Stop
      // either: the answer is saved as stopped only once the server has stopped it, so Stop refreshes
      // when the server says so (stopTurn); a refresh now could bring back the answer unmarked.
      onFinish: ({ isError, isDisconnect, isAbort }) => {
        if (isDisconnect) void rejoinStream();
        else if (!isError && !isAbort) router.refresh();
      },
      onError: () => {
        rejoin.current.failed = true;
      },
    });
  // Rejoin a broken stream from the server (any replica): a few tries with a growing pause, until one
  // is answered. A turn whose replica died is kept there as interrupted and its replay ends so; the
  // refresh at the end shows the transcript as stored either way — never a spinner that waits forever.
  const rejoinStream = async () => {
    const state = rejoin.current;
    if (state.running) return;
    state.running = true;
    try {
      for (let attempt = 0; attempt < REJOIN_ATTEMPTS; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * 2 ** attempt, 2_000)));
        state.failed = false;
        await resumeStream();
        if (!state.failed) break;
      }
    } finally {
      state.running = false;
    }
    router.refresh();
  };
  const busy = status === "submitted" || status === "streaming";
  const draft = draftKey(ws, chatId);
  const sentText = useRef<string | null>(null);
  const [restoreDraft, setRestoreDraft] = useState(0);
  const [needsAuthorization, setNeedsAuthorization] = useState<ServerStatusView[]>([]);
  const quietServers = useMemo(() => new Set(needsAuthorization.map((s) => s.serverId)), [needsAuthorization]);
  // The draft goes once the server took the turn; a refused turn (lost access, an error) gives it
  // back to the field, and an access code opens the notice that says why.
  // Once per refused turn: `handled` is the error already acted on (the effect re-runs on re-renders).
  const handled = useRef<Error | undefined>(undefined);
  useEffect(() => {
    if (status === "streaming" && sentText.current !== null) {
      clearSentDraft(draft, sentText.current);
      sentText.current = null;
    }
    if (status === "error" && error !== handled.current) {
      handled.current = error;
      sentText.current = null;
      setRestoreDraft((n) => n + 1);
      if (error && accessCodeOf(error.message)) {
        // Refused on entry: the question was never stored, so it leaves the transcript (its text is
        // back in the field) and the notice says why.
        setMessages((all) => (all.at(-1)?.role === "user" ? all.slice(0, -1) : all));
        reportAccessLossInBody(error.message);
      }
    }
  }, [status, error, draft, setMessages]);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  // One object per edit, not per render: the composer puts the question's text in its field when
  // this changes, and a new object on every render (a server's status arriving) put the old text
  // back over what the person had typed, which Send then sent.
  const composerEditing = useMemo(() => (editing ? { text: textOfMessage(editing), onCancel: () => setEditing(null) } : null), [editing]);
  // A refreshed server render (after an answer ends) carries the stored transcript, which is the
  // truth: it has what a resumed continuation did not replay.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new server render should reset the list, not every status change
  useEffect(() => {
    if (!busy) setMessages(initialMessages);
  }, [initialMessages]);
  const list = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // Follow the streaming answer unless the user scrolled up to read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on purpose each time the messages change (every streamed chunk)
  useEffect(() => {
    if (pinned.current && list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [messages]);

  const stopTurn = () => {
    void stop();
    // Leaving the page no longer stops a turn, so Stop tells the server itself. The server answers
    // once the turn (on whichever replica runs it) has ended and saved its answer: then the stored
    // transcript is the truth, and the page refreshes to it.
    fetch(workspaceApiPath(ws, `chat/${encodeURIComponent(chatId)}/stream`), { method: "DELETE" }).then(
      (r) => {
        if (!r.ok && r.status !== 204) toast.error("Could not stop the answer.");
        router.refresh();
      },
      () => toast.error("Could not stop the answer."),
    );
    setMessages((all) => {
      const last = all.at(-1);
      if (last?.role !== "assistant") return all;
      return [...all.slice(0, -1), { ...last, metadata: { ...metadataOf(last), stopped: true } }];
    });
  };

  const lastUserIndex = messages.findLastIndex((m) => m.role === "user");
  const lastMessage = messages.at(-1);
  const waitingApproval =
    lastMessage?.role === "assistant"
      ? ((
          lastMessage.parts.find((p) => p.type === "dynamic-tool" && p.state === "approval-requested") as
            | { approval: { id: string } }
            | undefined
        )?.approval.id ?? null)
      : null;
  const lastAssistantIndex = messages.findLastIndex((m) => m.role === "assistant");

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
    sentText.current = turn.text;
    if (editing) {
      // Edit and resend: the server drops the old question and its answer; so does the view.
      const at = messages.findIndex((m) => m.id === editing.id);
      if (at !== -1) setMessages(messages.slice(0, at));
      setEditing(null);
      void sendMessage({ parts }, { body: { turn, replaceLast: true } });
      return;
    }
    void sendMessage({ parts }, { body: { turn } });
  };

  useAppMessages((text) => onSend({ text, resources: [] }, { attachments: [] }));

  // A chat just opened (New chat, or the landing page's first turn) takes the keyboard in its composer.
  useEffect(() => {
    document.getElementById(COMPOSER_INPUT_ID)?.focus();
  }, []);

  return (
    <div className="flex h-full min-h-0 flex-col">
      <StatusStrip onStatuses={(all) => setNeedsAuthorization(all.filter((st) => st.state === "needs_authorization"))} />
      <AuthorizationBanner servers={needsAuthorization} />
      <HeldToolsNotice busy={busy} />
      {modelProblem && (
        <div
          data-testid="model-missing"
          role="alert"
          className="m-4 rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {modelProblem}{" "}
          <a href={workspaceHref(ws, "settings")} className="underline">
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
          <p className="text-sm text-muted-foreground">
            Ask something. The agent can use the tools of your MCP servers; type / for prompts.
          </p>
        )}
        {messages.map((m, index) => (
          <MessageView
            key={m.id}
            message={m}
            idle={!busy}
            canAnswer={index === messages.length - 1}
            quietServers={quietServers}
            actions={{
              onCopy: () => copyMessage(m),
              onRetry: !busy && index === lastAssistantIndex && index > lastUserIndex ? () => void regenerate() : undefined,
              onEdit: !busy && index === lastUserIndex ? () => setEditing(m) : undefined,
            }}
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
          <p data-testid="chat-thinking" className="text-xs text-muted-foreground">
            Thinking…
          </p>
        )}
        {error && !accessCodeOf(error.message) && (
          <p data-testid="chat-error" role="alert" className="text-sm text-red-700">
            {errorMessage(error.message, error.message)}
          </p>
        )}
      </div>
      <Composer
        busy={busy}
        disabled={!!modelProblem}
        onSend={onSend}
        onStop={stopTurn}
        editing={composerEditing}
        draftKey={draft}
        restoreDraft={restoreDraft}
        pendingApproval={waitingApproval}
      />
    </div>
  );
}
