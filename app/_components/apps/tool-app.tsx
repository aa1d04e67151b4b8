"use client";
/**
 * The render hook the tool card calls: a finished call whose tool links an MCP App shows the app
 * below its result. A crash in the app's host code stays in this box (error boundary); the chat goes on.
 */
import type { DynamicToolUIPart } from "ai";
import { useParams } from "next/navigation";
import { Component, type ReactNode, useCallback } from "react";
import type { ToolCallOutput } from "@/lib/domain/chat-message";
import { AppFrame } from "./app-frame";

/** The window event a confirmed app message travels on to the chat (see `useAppMessages`). */
export const APP_MESSAGE_EVENT = "switchboard:app-message";

class AppBoundary extends Component<{ children: ReactNode }, { error: string | null }> {
  state = { error: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  render() {
    if (this.state.error) {
      return (
        <p data-testid="app-error" role="alert" className="text-xs text-red-800 dark:text-red-300">
          The app failed: {this.state.error}
        </p>
      );
    }
    return this.props.children;
  }
}

/** The app of a tool part, or nothing. */
export function ToolApp({ part }: { part: DynamicToolUIPart }) {
  const output = part.state === "output-available" ? (part.output as ToolCallOutput | undefined) : undefined;
  // In the chat pages the route's `id` is the chat (the server inspector has none).
  const chatId = useParams<{ id?: string }>()?.id;
  const onMessage = useCallback((text: string) => window.dispatchEvent(new CustomEvent(APP_MESSAGE_EVENT, { detail: { text } })), []);
  if (!output?.appUri || output.isError) return null;
  return (
    <AppBoundary>
      <AppFrame
        serverId={output.serverId}
        serverName={output.serverName}
        uri={output.appUri}
        tool={output.tool}
        toolCallId={part.toolCallId}
        input={(part.input as Record<string, unknown>) ?? {}}
        result={output.content}
        chatId={chatId}
        onMessage={onMessage}
      />
    </AppBoundary>
  );
}
