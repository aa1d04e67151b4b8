"use client";
/** One chat message: user text with resource chips and prompt runs; the agent's markdown and tool cards. */
import type { ChatMessage, ProgressData } from "@/lib/domain/chat-message";
import { AppContextChip } from "../apps/app-context-chip";
import { ToolsetLine } from "../tool-search/toolset-line";
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
        className="mr-1 inline-block rounded-full bg-blue-100 px-2 py-0.5 text-xs text-blue-900 dark:bg-blue-900 dark:text-blue-100"
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
          /{part.data.serverName}: {part.data.name} {args && <span className="text-zinc-500">{args}</span>}
        </summary>
        {part.data.messages.map((m, i) => (
          <p key={i} className="mt-1 whitespace-pre-wrap text-xs">
            <span className="text-zinc-500">[{m.role}]</span> {m.text}
          </p>
        ))}
      </details>
    );
  }
  return null;
}

/** Render a message. */
export function MessageView({
  message,
  idle,
  canAnswer,
  onApprove,
  onDeny,
}: { message: ChatMessage } & Pick<ToolCardProps, "idle" | "canAnswer" | "onApprove" | "onDeny">) {
  if (message.role === "user") {
    return (
      <div data-testid="message-user" className="ml-auto max-w-[85%] rounded-lg bg-blue-50 px-3 py-2 dark:bg-blue-950">
        {message.parts.map((part, i) => (
          <UserPart key={i} part={part} />
        ))}
      </div>
    );
  }
  const progress = progressByCall(message);
  return (
    <div data-testid="message-assistant" className="max-w-full">
      {message.parts.map((part, i) => {
        if (part.type === "text")
          return (
            <div key={i} data-testid="assistant-text">
              <Markdown text={part.text} />
            </div>
          );
        if (part.type === "data-notice")
          return (
            <p key={i} data-testid="server-notice" className="mb-1 text-xs text-amber-700 dark:text-amber-400">
              {part.data.text}
            </p>
          );
        if (part.type === "data-toolset") return <ToolsetLine key={i} data={part.data} />;
        if (part.type === "reasoning")
          return (
            <details key={i} className="text-xs text-zinc-500">
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
            />
          );
        return null;
      })}
    </div>
  );
}
