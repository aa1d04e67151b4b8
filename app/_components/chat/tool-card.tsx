"use client";
/**
 * One tool call inline in the conversation: server, tool (its title when given), arguments, live
 * state with a progress bar, the result by content type, errors as errors, duration; collapsible
 * and copyable. While approval is pending it shows the approval panel (reason, schema form, Allow
 * once / Always allow / Deny); each state (approved, denied, done, failed, interrupted) has its own look.
 */
import type { DynamicToolUIPart } from "ai";
import { EDITED_BY_USER } from "@/lib/agent/approvals";
import type { ProgressData, ToolCallOutput, ToolMeta } from "@/lib/domain/chat-message";
import { ToolApp } from "../apps/tool-app";
import { ApprovalPanel } from "./approval-panel";
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
  };
}

function ProgressBar({ progress }: { progress: ProgressData }) {
  const pct = progress.total ? Math.max(0, Math.min(100, (progress.progress / progress.total) * 100)) : undefined;
  return (
    <div data-testid="tool-progress" className="space-y-1">
      <div className="h-1.5 w-full overflow-hidden rounded bg-zinc-200 dark:bg-zinc-700">
        <div
          className={`h-full bg-blue-600 ${pct === undefined ? "w-1/3 animate-pulse" : ""}`}
          style={pct === undefined ? undefined : { width: `${pct}%` }}
        />
      </div>
      <div className="text-xs text-zinc-500">
        {progress.message ?? "Working"} {progress.total ? `(${progress.progress}/${progress.total})` : `(${progress.progress})`}
      </div>
    </div>
  );
}

/** One look per state, so approved, denied, done, failed and interrupted are told apart at a glance. */
const TONES: Record<string, string> = {
  "waiting for approval": "border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950",
  approved: "border-blue-300 bg-blue-50 dark:border-blue-800 dark:bg-blue-950",
  running: "border-blue-300 bg-blue-50 dark:border-blue-800 dark:bg-blue-950",
  done: "border-emerald-300 bg-emerald-50/60 dark:border-emerald-800 dark:bg-emerald-950",
  failed: "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950",
  denied: "border-zinc-300 bg-zinc-100 opacity-80 dark:border-zinc-600 dark:bg-zinc-800",
  "not approved": "border-zinc-300 bg-zinc-100 opacity-80 dark:border-zinc-600 dark:bg-zinc-800",
  interrupted: "border-orange-300 border-dashed bg-orange-50 dark:border-orange-800 dark:bg-orange-950",
  default: "border-zinc-200 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900",
};

/** The card. */
export function ToolCard({ part, progress, idle, canAnswer, onApprove, onDeny }: ToolCardProps) {
  const { server, tool } = labelOf(part);
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
  const edited = "approval" in part && part.approval?.approved === true && part.approval.reason === EDITED_BY_USER;
  const copy = () =>
    void navigator.clipboard?.writeText(
      JSON.stringify({ server, tool, input: part.input, output: output?.content ?? part.errorText ?? null }, null, 2),
    );
  const tone = TONES[state] ?? TONES.default;
  return (
    <details
      open
      data-testid="tool-card"
      data-tool={part.toolName}
      data-state={state}
      className={`my-2 rounded border p-2 text-sm ${tone}`}
    >
      <summary className="flex cursor-pointer items-center gap-2">
        <span className="text-xs text-zinc-500">{server}</span>
        <span data-testid="tool-card-name" className="font-medium">
          {tool}
        </span>
        <span
          data-testid="tool-card-state"
          className="rounded bg-white/70 px-1.5 text-xs text-zinc-600 dark:bg-black/30 dark:text-zinc-300"
        >
          {state}
        </span>
        {output && (
          <span data-testid="tool-duration" className="text-xs text-zinc-500">
            {Math.round(output.durationMs)} ms
          </span>
        )}
        <button
          type="button"
          onClick={(e) => {
            e.preventDefault();
            copy();
          }}
          className="ml-auto text-xs text-zinc-500 hover:underline"
        >
          Copy
        </button>
      </summary>
      <div className="mt-2 space-y-2">
        {part.state === "approval-requested" && canAnswer ? (
          <ApprovalPanel part={part} onApprove={onApprove} onDeny={onDeny} />
        ) : (
          <div>
            <div className="text-xs text-zinc-500">
              Arguments
              {edited && (
                <span
                  data-testid="args-edited"
                  className="ml-2 rounded bg-blue-100 px-1.5 text-blue-900 dark:bg-blue-900 dark:text-blue-100"
                >
                  edited by you
                </span>
              )}
            </div>
            <pre data-testid="tool-args" className="whitespace-pre-wrap break-words font-mono text-xs">
              {JSON.stringify(part.input ?? {}, null, 2)}
            </pre>
          </div>
        )}
        {running && progress && <ProgressBar progress={progress} />}
        {running && !progress && <p className="text-xs text-zinc-500">Running…</p>}
        {output &&
          (isError ? (
            <div data-testid="tool-error" className="text-red-800 dark:text-red-300">
              <ToolResult result={output.content} />
            </div>
          ) : (
            <ToolResult result={output.content} />
          ))}
        <ToolApp part={part} />
        {part.state === "output-error" && (
          <p data-testid="tool-error" className="text-xs text-red-800 dark:text-red-300">
            {part.errorText}
          </p>
        )}
        {part.state === "output-denied" && (
          <p data-testid="tool-denied" className="text-xs text-zinc-600 dark:text-zinc-300">
            {part.approval.reason ?? "Denied."}
          </p>
        )}
      </div>
    </details>
  );
}
