"use client";
/**
 * One tool call inline in the conversation: server, tool (its title when given), arguments, live
 * state with a progress bar, the result by content type, errors as errors, duration; collapsible
 * and copyable. While approval is pending it shows editable arguments with Approve / Deny.
 */
import { useState } from "react";
import type { DynamicToolUIPart } from "ai";
import type { ProgressData, ToolCallOutput, ToolMeta } from "@/lib/domain/chat-message";
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
  "output-error": "error",
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

function ArgumentsEditor({
  part,
  onApprove,
  onDeny,
}: Pick<ToolCardProps, "onApprove" | "onDeny"> & { part: DynamicToolUIPart & { state: "approval-requested" } }) {
  const [text, setText] = useState(() => JSON.stringify(part.input ?? {}, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const approve = () => {
    try {
      const parsed: unknown = JSON.parse(text || "{}");
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("Arguments must be a JSON object.");
      onApprove(part.approval.id, parsed as Record<string, unknown>);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <div data-testid="tool-approval" className="space-y-2">
      <label className="block text-xs text-zinc-600 dark:text-zinc-300">
        Arguments (you can edit them before the call runs)
        <textarea
          data-testid="tool-args-editor"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={Math.min(12, text.split("\n").length + 1)}
          className="mt-1 block w-full rounded border border-zinc-300 bg-white p-2 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-900"
        />
      </label>
      {problem && (
        <p role="alert" className="text-xs text-red-700">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <button
          type="button"
          data-testid="tool-approve"
          onClick={approve}
          className="rounded bg-emerald-700 px-3 py-1 text-xs font-medium text-white hover:bg-emerald-800"
        >
          Approve
        </button>
        <button
          type="button"
          data-testid="tool-deny"
          onClick={() => onDeny(part.approval.id)}
          className="rounded bg-zinc-200 px-3 py-1 text-xs font-medium hover:bg-zinc-300 dark:bg-zinc-700"
        >
          Deny
        </button>
      </div>
    </div>
  );
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

/** The card. */
export function ToolCard({ part, progress, idle, canAnswer, onApprove, onDeny }: ToolCardProps) {
  const { server, tool } = labelOf(part);
  const output = part.state === "output-available" ? (part.output as ToolCallOutput | undefined) : undefined;
  const interrupted = idle && (part.state === "input-streaming" || part.state === "input-available" || part.state === "approval-responded");
  const isError = part.state === "output-error" || output?.isError === true;
  const skipped = part.state === "approval-requested" && !canAnswer;
  // After approval the part stays "approval-responded" until its output arrives.
  const running = !interrupted && (part.state === "input-available" || (part.state === "approval-responded" && part.approval.approved));
  const state = interrupted ? "interrupted" : skipped ? "not approved" : isError ? "error" : STATE_LABEL[part.state];
  const copy = () =>
    void navigator.clipboard?.writeText(
      JSON.stringify({ server, tool, input: part.input, output: output?.content ?? part.errorText ?? null }, null, 2),
    );
  const tone = isError
    ? "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950"
    : part.state === "approval-requested"
      ? "border-amber-300 bg-amber-50 dark:border-amber-700 dark:bg-amber-950"
      : "border-zinc-200 bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900";
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
          <ArgumentsEditor part={part} onApprove={onApprove} onDeny={onDeny} />
        ) : (
          <div>
            <div className="text-xs text-zinc-500">Arguments</div>
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
