"use client";
/** A user message's "context from an app" part: the user sees what an MCP App told the model. */
import type { AppContextData } from "@/lib/domain/chat-message";

/** Collapsed chip; opening it shows the (redacted) text the model received. */
export function AppContextChip({ data }: { data: AppContextData }) {
  return (
    <details data-testid="app-context" className="text-xs">
      <summary className="cursor-pointer text-zinc-600 dark:text-zinc-300">Context from the app of {data.serverName}</summary>
      <p className="mt-1 whitespace-pre-wrap break-words font-mono">{data.text}</p>
    </details>
  );
}
