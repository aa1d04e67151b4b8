"use client";
/**
 * The approval card's body: why the agent asks, the server as configured here (never its
 * self-declared name), the arguments as a form generated from the tool's input schema (or raw
 * JSON), an "edited by you" marker with a diff against what the model asked for, and Allow once /
 * Always allow this tool / Deny. What is shown is exactly what will run.
 */
import type { DynamicToolUIPart } from "ai";
import { useMemo, useState } from "react";
import type { ToolMeta } from "@/lib/domain/chat-message";
import { argumentChanges } from "@/lib/trust/diff";
import { setToolPolicy } from "../api-client";
import { Button } from "../ui/primitives/button";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { type FieldSchema, SchemaForm } from "./schema-form";

/** What the panel needs from the chat. */
export interface ApprovalPanelProps {
  part: DynamicToolUIPart & { state: "approval-requested" };
  onApprove: (approvalId: string, input: Record<string, unknown>) => void;
  onDeny: (approvalId: string) => void;
}

function parseSchema(meta: Partial<ToolMeta>): FieldSchema {
  try {
    return meta.inputSchema ? (JSON.parse(meta.inputSchema) as FieldSchema) : { type: "object", properties: {} };
  } catch {
    return { type: "object", properties: {} };
  }
}

/** The panel. */
export function ApprovalPanel({ part, onApprove, onDeny }: ApprovalPanelProps) {
  const ws = useWorkspaceSlug();
  const meta = (part.toolMetadata ?? {}) as Partial<ToolMeta>;
  const schema = useMemo(() => parseSchema(meta), [meta]);
  const asked = useMemo(() => (part.input && typeof part.input === "object" ? (part.input as Record<string, unknown>) : {}), [part.input]);
  const [value, setValue] = useState<Record<string, unknown>>(asked);
  const [raw, setRaw] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changes = argumentChanges(asked, value);
  const reason = (part.approval as { requestReason?: string }).requestReason;

  /** The arguments that will run, or null (with the problem shown) when the raw JSON is not an object. */
  const current = (): Record<string, unknown> | null => {
    if (raw === null) return value;
    try {
      const parsed: unknown = JSON.parse(raw || "{}");
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("Arguments must be a JSON object.");
      return parsed as Record<string, unknown>;
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      return null;
    }
  };
  const toggleRaw = () => {
    if (raw === null) return setRaw(JSON.stringify(value, null, 2));
    const parsed = current();
    if (parsed) {
      setValue(parsed);
      setRaw(null);
      setProblem(null);
    }
  };
  const approve = () => {
    const input = current();
    if (input) onApprove(part.approval.id, input);
  };
  const alwaysAllow = async () => {
    const input = current();
    if (!input || !meta.serverId || !meta.policyTool) return;
    setBusy(true);
    try {
      await setToolPolicy(ws, { serverId: meta.serverId, toolName: meta.policyTool }, "allow");
      onApprove(part.approval.id, input);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  };

  return (
    // Focusable (not in the Tab order itself): the composer's "Review" moves the keyboard here, and
    // the next Tab reaches its fields and Allow once / Always allow / Deny in reading order.
    <section
      data-testid="tool-approval"
      data-approval-id={part.approval.id}
      tabIndex={-1}
      aria-label={`Approval: ${meta.serverName ?? "a server"} wants to run ${meta.tool ?? part.toolName}`}
      className="space-y-2 rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <p data-testid="approval-reason" className="text-xs text-amber-900 dark:text-amber-200">
        {reason ?? "This tool asks before it runs."}
      </p>
      <p className="text-xs text-muted-foreground">
        <span data-testid="approval-server" className="font-medium">
          {meta.serverName}
        </span>{" "}
        wants to run <code data-testid="approval-tool">{meta.tool ?? part.toolName}</code> with:
      </p>
      <div className="flex items-center gap-2 text-xs">
        <button type="button" data-testid="tool-args-mode" onClick={toggleRaw} className="text-primary hover:underline">
          {raw === null ? "Edit as raw JSON" : "Edit as form"}
        </button>
        {changes.length > 0 && (
          <span data-testid="args-edited" className="rounded bg-primary/10 px-1.5 text-primary">
            edited by you
          </span>
        )}
      </div>
      {raw === null ? (
        <SchemaForm schema={schema} value={value} onChange={setValue} />
      ) : (
        <textarea
          data-testid="tool-args-editor"
          aria-label="Arguments as JSON"
          value={raw}
          onChange={(e) => setRaw(e.target.value)}
          rows={Math.min(12, raw.split("\n").length + 1)}
          className="block w-full rounded border border-zinc-300 bg-white p-2 font-mono text-xs dark:border-zinc-600 dark:bg-zinc-900"
        />
      )}
      {changes.length > 0 && raw === null && (
        <ul data-testid="args-diff" className="space-y-0.5 font-mono text-xs">
          {changes.map((c) => (
            <li key={c.key}>
              {c.key}: <del className="text-red-700">{c.before ?? "(absent)"}</del> →{" "}
              <ins className="text-emerald-700">{c.after ?? "(removed)"}</ins>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p role="alert" className="text-xs text-destructive">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" data-testid="tool-approve" disabled={busy} onClick={approve}>
          Allow once
        </Button>
        <Button variant="secondary" size="sm" data-testid="tool-always-allow" disabled={busy} onClick={() => void alwaysAllow()}>
          Always allow this tool
        </Button>
        <Button variant="secondary" size="sm" data-testid="tool-deny" disabled={busy} onClick={() => onDeny(part.approval.id)}>
          Deny
        </Button>
      </div>
    </section>
  );
}
