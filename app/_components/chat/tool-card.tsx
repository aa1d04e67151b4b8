"use client";
/**
 * One tool call inline in the conversation, collapsed to one line (server, tool title, state,
 * duration) behind a visible disclosure; it opens by itself while it waits for approval or when it
 * failed. Open, it shows the arguments as key/value pairs, live progress, the result by content
 * type, and the server's claims about the tool as badges. While approval is pending it shows the
 * approval panel (reason, schema form, Allow once / Always allow / Deny).
 */
import type { DynamicToolUIPart } from "ai";
import { ChevronRightIcon, CopyIcon } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { EDITED_BY_USER } from "@/lib/agent/approvals";
import type { ProgressData, ToolCallOutput, ToolMeta } from "@/lib/domain/chat-message";
import { ToolApp } from "../apps/tool-app";
import { Badge } from "../ui/primitives/badge";
import { cn } from "../ui/primitives/cn";
import { toast } from "../ui/primitives/toast";
import { ApprovalPanel } from "./approval-panel";
import { ArgumentsView } from "./arguments-view";
import { ToolResult } from "./tool-result";

/** What the card needs from the chat. */
export interface ToolCardProps {
  part: DynamicToolUIPart;
  progress?: ProgressData;
  /** The chat is not streaming: a call still "running" was interrupted. */
  idle: boolean;
  /** Approvals can be answered only on the latest message (older ones were skipped by a new turn). */
  canAnswer: boolean;
  onApprove: (approvalId: string, input: Record<string, unknown>) => void;
  onDeny: (approvalId: string) => void;
  /** Extra content rendered inside the open card under the result (an MCP App's frame, say). */
  extra?: (part: DynamicToolUIPart) => ReactNode;
}

const STATE_LABEL: Record<DynamicToolUIPart["state"], string> = {
  "input-streaming": "preparing",
  "input-available": "running",
  "approval-requested": "waiting for approval",
  "approval-responded": "approved",
  "output-available": "done",
  "output-error": "failed",
  "output-denied": "denied",
};

function labelOf(part: DynamicToolUIPart) {
  const meta = (part.toolMetadata ?? {}) as Partial<ToolMeta>;
  const output = part.state === "output-available" ? (part.output as Partial<ToolCallOutput> | undefined) : undefined;
  return {
    server: meta.serverName ?? output?.serverName ?? "",
    tool: meta.title ?? output?.title ?? meta.tool ?? output?.tool ?? part.toolName,
    hints: meta.hints ? meta.hints.split(",") : [],
  };
}

function ProgressBar({ progress }: { progress: ProgressData }) {
  const pct = progress.total ? Math.max(0, Math.min(100, (progress.progress / progress.total) * 100)) : undefined;
  return (
    <div data-testid="tool-progress" className="space-y-1">
      <div className="h-1.5 w-full overflow-hidden rounded bg-muted">
        <div
          className={cn("h-full bg-primary", pct === undefined && "w-1/3 animate-pulse")}
          style={pct === undefined ? undefined : { width: `${pct}%` }}
        />
      </div>
      <div className="text-xs text-muted-foreground">
        {progress.message ?? "Working"} {progress.total ? `(${progress.progress}/${progress.total})` : `(${progress.progress})`}
      </div>
    </div>
  );
}

/** One look per state, so approved, denied, done, failed and interrupted are told apart at a glance. */
const TONES: Record<string, string> = {
  "waiting for approval": "border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950",
  approved: "border-primary/40 bg-primary/5",
  running: "border-primary/40 bg-primary/5",
  done: "border-border bg-surface",
  failed: "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950",
  denied: "border-border bg-muted",
  "not approved": "border-border bg-muted",
  interrupted: "border-orange-300 border-dashed bg-orange-50 dark:border-orange-800 dark:bg-orange-950",
  default: "border-border bg-surface",
};

const BADGE_TONE: Record<string, "neutral" | "primary" | "success" | "warning" | "danger"> = {
  "waiting for approval": "warning",
  running: "primary",
  approved: "primary",
  done: "success",
  failed: "danger",
  interrupted: "warning",
};

/** Whole seconds past ten, else milliseconds: "840 ms", "12 s". */
function duration(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms)} ms`;
}

/** The card. */
export function ToolCard({ part, progress, idle, canAnswer, onApprove, onDeny, extra }: ToolCardProps) {
  const { server, tool, hints } = labelOf(part);
  const output = part.state === "output-available" ? (part.output as ToolCallOutput | undefined) : undefined;
  const interrupted = idle && (part.state === "input-streaming" || part.state === "input-available" || part.state === "approval-responded");
  const isError = part.state === "output-error" || output?.isError === true;
  const skipped = part.state === "approval-requested" && !canAnswer;
  // After approval the part stays "approval-responded" until its output arrives.
  const running = !interrupted && (part.state === "input-available" || (part.state === "approval-responded" && part.approval.approved));
  const answeredNo = part.state === "approval-responded" && part.approval.approved === false;
  const state = interrupted
    ? "interrupted"
    : skipped
      ? "not approved"
      : isError
        ? "failed"
        : answeredNo
          ? "denied"
          : STATE_LABEL[part.state];
  const awaiting = part.state === "approval-requested" && canAnswer;
  const [open, setOpen] = useState(awaiting || isError);
  // Open by itself when it starts waiting for the user or fails; the user's own toggle wins otherwise.
  useEffect(() => {
    if (awaiting || isError) setOpen(true);
  }, [awaiting, isError]);
  const edited = "approval" in part && part.approval?.approved === true && part.approval.reason === EDITED_BY_USER;
  const copy = () => {
    const text = JSON.stringify({ server, tool, input: part.input, output: output?.content ?? part.errorText ?? null }, null, 2);
    navigator.clipboard?.writeText(text).then(
      () => toast.success("Copied"),
      () => toast.error("Could not copy."),
    );
  };
  const tone = TONES[state] ?? TONES.default;
  return (
    <>
      <details
        open={open}
        onToggle={(e) => setOpen(e.currentTarget.open)}
        data-testid="tool-card"
        data-tool={part.toolName}
        data-state={state}
        className={cn("group my-2 min-w-0 rounded-md border text-sm", tone)}
      >
        <summary className="flex min-w-0 cursor-pointer list-none flex-wrap items-center gap-x-2 gap-y-1 px-2 py-1.5 [&::-webkit-details-marker]:hidden">
          <ChevronRightIcon className="size-4 shrink-0 transition-transform group-open:rotate-90" aria-hidden />
          <span className="sr-only">{open ? "Hide details of" : "Show details of"}</span>
          <span className="min-w-0 truncate">
            {server && <span className="text-xs text-muted-foreground">{server} · </span>}
            <span data-testid="tool-card-name" className="font-medium">
              {tool}
            </span>
          </span>
          <Badge data-testid="tool-card-state" tone={BADGE_TONE[state] ?? "neutral"}>
            {state}
          </Badge>
          {output && (
            <span data-testid="tool-duration" className="shrink-0 text-xs text-muted-foreground">
              {duration(output.durationMs)}
            </span>
          )}
          {/* Live progress stays in the one-line view, so a collapsed card still shows it moving. */}
          {running && progress && (
            <div className="basis-full">
              <ProgressBar progress={progress} />
            </div>
          )}
        </summary>
        <div className="min-w-0 space-y-2 border-t border-border/60 px-2 pt-2 pb-2">
          <div className="flex flex-wrap items-center gap-1">
            {hints.length > 0 && <span className="text-xs text-muted-foreground">The server says:</span>}
            {hints.map((h) => (
              <Badge key={h} data-testid="tool-hint" title="A claim made by the server, not verified">
                {h}
              </Badge>
            ))}
            <button
              type="button"
              onClick={copy}
              className="ml-auto inline-flex items-center gap-1 rounded px-1 text-xs text-muted-foreground hover:underline"
            >
              <CopyIcon className="size-3" aria-hidden /> Copy call
            </button>
          </div>
          {awaiting ? (
            <ApprovalPanel part={part} onApprove={onApprove} onDeny={onDeny} />
          ) : (
            <div>
              <div className="text-xs text-muted-foreground">
                Arguments
                {edited && (
                  <Badge data-testid="args-edited" tone="primary" className="ml-2">
                    edited by you
                  </Badge>
                )}
              </div>
              <ArgumentsView value={part.input} />
            </div>
          )}
          {running && !progress && <p className="text-xs text-muted-foreground">Running…</p>}
          {output &&
            (isError ? (
              <div data-testid="tool-error" className="text-red-800 dark:text-red-300">
                <ToolResult result={output.content} server={{ id: output.serverId, name: output.serverName }} />
              </div>
            ) : (
              <ToolResult result={output.content} server={{ id: output.serverId, name: output.serverName }} />
            ))}
          {part.state === "output-error" && (
            <p data-testid="tool-error" className="text-xs text-red-800 dark:text-red-300">
              {part.errorText}
            </p>
          )}
          {part.state === "output-denied" && (
            <p data-testid="tool-denied" className="text-xs text-muted-foreground">
              {part.approval.reason ?? "Denied."}
            </p>
          )}
          {extra?.(part)}
        </div>
      </details>
      {/* An MCP App stays in view under its card: the one-line card folds the call, not the app. */}
      <ToolApp part={part} />
    </>
  );
}
