"use client";
/**
 * One chat message: user text with resource chips and prompt runs (with what was sent); the agent's
 * markdown and tool cards, the model that answered, a "stopped" or "interrupted" mark, and Copy / Retry / Edit.
 */
import { CopyIcon, PencilIcon, RotateCcwIcon } from "lucide-react";
import { type ChatMessage, type InteractionData, metadataOf, type ProgressData } from "@/lib/domain/chat-message";
import { AppContextChip } from "../apps/app-context-chip";
import { ToolsetLine } from "../tool-search/toolset-line";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { Markdown } from "./markdown";
import { ToolCard, type ToolCardProps } from "./tool-card";

type Part = ChatMessage["parts"][number];

function progressByCall(message: ChatMessage): Map<string, ProgressData> {
  const map = new Map<string, ProgressData>();
  for (const part of message.parts) if (part.type === "data-progress") map.set(part.data.toolCallId, part.data);
  return map;
}

function UserPart({ part }: { part: Part }) {
  if (part.type === "text") return <p className="whitespace-pre-wrap break-words">{part.text}</p>;
  if (part.type === "data-resource") {
    return (
      <span
        data-testid="resource-chip"
        title={part.data.uri}
        className="mr-1 inline-block max-w-full truncate rounded-full bg-primary/10 px-2 py-0.5 text-xs text-primary"
      >
        {part.data.serverName}: {part.data.name || part.data.uri}
      </span>
    );
  }
  if (part.type === "data-appContext") return <AppContextChip data={part.data} />;
  if (part.type === "data-prompt") {
    const args = Object.entries(part.data.arguments)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ");
    return (
      <details data-testid="prompt-run" className="text-sm">
        <summary className="cursor-pointer">
          /{part.data.serverName}: {part.data.name} {args && <span className="text-muted-foreground">{args}</span>}
          {part.data.edited && (
            <Badge tone="primary" className="ml-2">
              edited before sending
            </Badge>
          )}
        </summary>
        {/* The messages as they were sent: the server's rendering, or the user's edit of it. */}
        {part.data.messages.length === 0 && <p className="mt-1 text-xs text-muted-foreground">Sending…</p>}
        {part.data.messages.map((m, i) => (
          <p key={i} data-testid="prompt-run-message" className="mt-1 whitespace-pre-wrap break-words text-xs">
            <span className="text-muted-foreground">[{m.role}]</span> {m.text}
          </p>
        ))}
      </details>
    );
  }
  return null;
}

/** A server's question to the user (elicitation) or its model request (sampling), where it happened in the answer. */
function InteractionCard({ data }: { data: InteractionData }) {
  const title = data.kind === "elicitation" ? `${data.serverName} asked you` : `${data.serverName} asked the model (sampling)`;
  return (
    <div data-testid="interaction" data-kind={data.kind} className="my-2 rounded-md border border-dashed border-border p-2 text-xs">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{title}</span>
        <Badge tone={data.outcome === "accept" ? "success" : "neutral"}>{OUTCOME[data.outcome] ?? data.outcome}</Badge>
      </div>
      {data.asked && <p className="mt-1 whitespace-pre-wrap break-words text-muted-foreground">{data.asked}</p>}
      {data.answer && <p className="mt-1 whitespace-pre-wrap break-words font-mono">{data.answer}</p>}
    </div>
  );
}

const OUTCOME: Record<string, string> = { accept: "answered", decline: "declined", cancel: "cancelled" };

/** What a message offers; an action left undefined is not shown (Retry and Edit only on the last turn). */
export interface MessageActions {
  onCopy: () => void;
  onRetry?: () => void;
  onEdit?: () => void;
}

function ActionBar({ actions, align }: { actions?: MessageActions; align: "start" | "end" }) {
  if (!actions) return null;
  return (
    <div className={`mt-1 flex gap-1 ${align === "end" ? "justify-end" : ""}`}>
      <Button variant="ghost" size="sm" data-testid="message-copy" onClick={actions.onCopy}>
        <CopyIcon aria-hidden /> Copy
      </Button>
      {actions.onRetry && (
        <Button variant="ghost" size="sm" data-testid="message-retry" onClick={actions.onRetry}>
          <RotateCcwIcon aria-hidden /> Retry
        </Button>
      )}
      {actions.onEdit && (
        <Button variant="ghost" size="sm" data-testid="message-edit" onClick={actions.onEdit}>
          <PencilIcon aria-hidden /> Edit
        </Button>
      )}
    </div>
  );
}

/**
 * Render a message. `quietServers`: servers whose "left out of this answer" notice is not repeated
 * in each answer, because the chat names them once in its authorization banner.
 */
export function MessageView({
  message,
  idle,
  canAnswer,
  onApprove,
  onDeny,
  actions,
  extra,
  quietServers,
}: { message: ChatMessage; actions?: MessageActions; quietServers?: ReadonlySet<string> } & Pick<
  ToolCardProps,
  "idle" | "canAnswer" | "onApprove" | "onDeny" | "extra"
>) {
  if (message.role === "user") {
    return (
      <div className="ml-auto max-w-[85%]">
        <div data-testid="message-user" className="rounded-lg bg-primary/10 px-3 py-2">
          {message.parts.map((part, i) => (
            <UserPart key={i} part={part} />
          ))}
        </div>
        <ActionBar actions={actions} align="end" />
      </div>
    );
  }
  const progress = progressByCall(message);
  const meta = metadataOf(message);
  return (
    <div data-testid="message-assistant" className="min-w-0 max-w-full">
      {meta.model && (
        <p data-testid="message-model" className="mb-1 text-xs text-muted-foreground">
          {meta.model}
        </p>
      )}
      {message.parts.map((part, i) => {
        if (part.type === "text")
          return (
            <div key={i} data-testid="assistant-text">
              <Markdown text={part.text} />
            </div>
          );
        if (part.type === "data-notice" && quietServers?.has(part.data.serverId)) return null;
        if (part.type === "data-notice")
          return (
            <p key={i} data-testid="server-notice" className="mb-1 text-xs text-amber-800 dark:text-amber-300">
              {part.data.text}
            </p>
          );
        if (part.type === "data-toolset") return <ToolsetLine key={i} data={part.data} />;
        if (part.type === "data-interaction") return <InteractionCard key={i} data={part.data} />;
        if (part.type === "reasoning")
          return (
            <details key={i} className="text-xs text-muted-foreground">
              <summary>Reasoning</summary>
              <p className="whitespace-pre-wrap">{part.text}</p>
            </details>
          );
        if (part.type === "dynamic-tool")
          return (
            <ToolCard
              key={part.toolCallId}
              part={part}
              progress={progress.get(part.toolCallId)}
              idle={idle}
              canAnswer={canAnswer}
              onApprove={onApprove}
              onDeny={onDeny}
              extra={extra}
            />
          );
        return null;
      })}
      {meta.stopped && (
        <Badge data-testid="message-stopped" tone="warning" className="mt-1">
          stopped
        </Badge>
      )}
      {meta.interrupted && !meta.stopped && (
        <Badge
          data-testid="message-interrupted"
          tone="warning"
          className="mt-1"
          title="The server running this answer stopped before it finished. Retry asks again."
        >
          interrupted
        </Badge>
      )}
      {idle && <ActionBar actions={actions} align="start" />}
    </div>
  );
}
