"use client";
/**
 * Tools by hand: each tool's input schema becomes a form (@rjsf/core, checked without eval: the
 * app's CSP forbids it), or raw
 * JSON. A call goes through `POST /api/servers/:id/tools/call`, the agent's gate: a held or
 * "never" tool is refused there, and an "ask" tool is confirmed here before the request is sent.
 */
import Form from "@rjsf/core";
import { useEffect, useState } from "react";
import { ApiError } from "../api-client";
import { AppFrame } from "../apps/app-frame";
import { Badge } from "../ui/primitives/badge";
import { Button } from "../ui/primitives/button";
import { cn } from "../ui/primitives/cn";
import { Textarea } from "../ui/primitives/textarea";
import { callTool, type HandCallResult, type InspectorTool, listInspectorTools } from "./inspector-api";
import { formSchema } from "./form-schema";
import { formValidator } from "./form-validator";
import { rjsfTheme } from "../ui/rjsf-theme";
import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { ToolResult } from "./tool-result";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** Last calls kept on the page, newest first. */
const RECENT_CALLS = 10;

/** The Tools tab. */
export function ToolsTab({ serverId, connected }: { serverId: string; connected: boolean }) {
  const ws = useWorkspaceSlug();
  const [tools, setTools] = useState<InspectorTool[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [recent, setRecent] = useState<{ tool: string; at: number; durationMs: number | null; isError: boolean }[]>([]);

  useEffect(() => {
    if (!connected) return;
    listInspectorTools(ws, serverId).then(
      (list) => {
        setTools(list);
        setProblem(null);
      },
      (e: Error) => setProblem(e.message),
    );
  }, [ws, serverId, connected]);

  if (!connected && !tools) return <p className="text-sm text-zinc-500">Start the server (above) to list its tools.</p>;
  const tool = tools?.find((t) => t.rawName === selected && t.kind === "tool");
  return (
    <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
      <ul className="space-y-1 text-sm" data-testid="inspector-tools">
        {problem && <li className="field-error">{problem}</li>}
        {tools
          ?.filter((t) => t.kind === "tool")
          .map((t) => (
            <li key={t.rawName}>
              <Button
                type="button"
                variant="ghost"
                data-testid={`tool-${t.rawName}`}
                onClick={() => setSelected(t.rawName)}
                className={cn(
                  "block h-auto w-full px-2 py-1 text-left font-normal whitespace-normal",
                  selected === t.rawName && "bg-muted",
                )}
              >
                <code>{t.rawName}</code>
                {t.policy.action !== "allow" && (
                  <Badge tone="warning" className="ml-1">
                    {t.policy.action}
                  </Badge>
                )}
              </Button>
            </li>
          ))}
      </ul>
      <div className="min-w-0 space-y-3">
        {tool ? (
          <ToolRunner
            key={tool.rawName}
            serverId={serverId}
            tool={tool}
            onCalled={(entry) => setRecent((list) => [entry, ...list].slice(0, RECENT_CALLS))}
          />
        ) : (
          <p className="text-sm text-zinc-500">Pick a tool to try it.</p>
        )}
        {recent.length > 0 && (
          <div data-testid="recent-calls" className="text-xs">
            <h3 className="font-medium">Last calls</h3>
            <ul>
              {recent.map((call) => (
                <li key={`${call.at}-${call.tool}`} className={call.isError ? "text-red-700" : "text-zinc-600"}>
                  {new Date(call.at).toLocaleTimeString()} <code>{call.tool}</code> —{" "}
                  {call.durationMs === null ? "?" : `${call.durationMs.toFixed(0)} ms`}
                  {call.isError && " (error)"}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}

function ToolRunner({
  serverId,
  tool,
  onCalled,
}: {
  serverId: string;
  tool: InspectorTool;
  onCalled: (entry: { tool: string; at: number; durationMs: number | null; isError: boolean }) => void;
}) {
  const ws = useWorkspaceSlug();
  const [args, setArgs] = useState<Record<string, unknown>>({});
  const [raw, setRaw] = useState<string | null>(null);
  const [pending, setPending] = useState<Record<string, unknown> | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<(HandCallResult & { callId: string; input: Record<string, unknown> }) | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  async function run(values: Record<string, unknown>, confirmed: boolean) {
    if (tool.policy.action === "ask" && !confirmed) return setPending(values);
    setPending(null);
    setBusy(true);
    setProblem(null);
    try {
      const result = await callTool(ws, serverId, tool.rawName, values);
      setOutcome({ ...result, callId: `inspector-${Date.now()}`, input: values });
      onCalled({ tool: tool.rawName, at: Date.now(), durationMs: result.durationMs, isError: result.result.isError === true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setProblem(error.message);
    } finally {
      setBusy(false);
    }
  }

  function submitRaw() {
    try {
      const parsed = JSON.parse(raw ?? "{}");
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("The arguments must be a JSON object.");
      void run(parsed as Record<string, unknown>, false);
    } catch (error) {
      setProblem((error as Error).message);
    }
  }

  return (
    <div className="space-y-3" data-testid="tool-runner">
      <div>
        <h2 className="font-medium">
          <code>{tool.rawName}</code> {tool.title && <span className="text-zinc-600">{tool.title}</span>}
        </h2>
        {tool.description && <p className="text-sm text-zinc-600 whitespace-pre-wrap">{tool.description}</p>}
        {tool.annotations && (
          <p className="text-xs text-zinc-500" title="What the server claims about the tool">
            server claims:{" "}
            {Object.entries(tool.annotations)
              .map(([k, v]) => `${k}=${String(v)}`)
              .join(", ")}
          </p>
        )}
      </div>
      {tool.policy.action === "held" || tool.policy.action === "never" ? (
        <p className="field-error" data-testid="tool-blocked">
          {tool.policy.action === "held" ? "Held for review: " : "Not allowed: "}
          {tool.policy.reason}
        </p>
      ) : null}
      <ChoiceLabel className="text-xs">
        <Checkbox
          data-testid="raw-json"
          checked={raw !== null}
          onChange={(e) => setRaw(e.target.checked ? JSON.stringify(args, null, 2) : null)}
        />
        Raw JSON
      </ChoiceLabel>
      {raw === null ? (
        <Form
          {...rjsfTheme}
          schema={formSchema(tool.inputSchema)}
          validator={formValidator}
          formData={args}
          onChange={(event) => setArgs((event.formData ?? {}) as Record<string, unknown>)}
          onSubmit={(event) => void run((event.formData ?? {}) as Record<string, unknown>, false)}
          disabled={busy}
          showErrorList={false}
          // rjsf's own errors appear inline under each field; the browser's bubbles would hide them.
          noHtml5Validate
          className="rjsf space-y-3 text-sm"
        >
          <Button type="submit" disabled={busy} data-testid="call-tool">
            {busy ? "Calling…" : "Call"}
          </Button>
        </Form>
      ) : (
        <div className="space-y-2">
          <Textarea
            className="h-40 font-mono text-xs"
            value={raw}
            onChange={(e) => setRaw(e.target.value)}
            aria-label="Arguments as JSON"
            data-testid="raw-arguments"
          />
          <Button type="button" disabled={busy} onClick={submitRaw} data-testid="call-tool">
            {busy ? "Calling…" : "Call"}
          </Button>
        </div>
      )}
      {pending && (
        <div
          role="alertdialog"
          aria-label="Confirm the call"
          className="rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:bg-amber-950"
          data-testid="confirm-call"
        >
          <p>{tool.policy.reason} Run it with these arguments?</p>
          <pre className="my-2 whitespace-pre-wrap text-xs">{JSON.stringify(pending, null, 2)}</pre>
          <div className="flex gap-2">
            <Button type="button" size="sm" onClick={() => void run(pending, true)} data-testid="confirm-call-yes">
              Run it
            </Button>
            <Button type="button" variant="secondary" size="sm" onClick={() => setPending(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      {problem && (
        <p className="field-error" role="alert" data-testid="call-error">
          {problem}
        </p>
      )}
      {outcome && <ToolResult outcome={outcome} outputSchema={tool.outputSchema} />}
      {/* A tool that links an MCP App shows it here too, in the same sandboxed frame as in the chat;
          with no chat behind it, the app's messages and model context are refused. */}
      {outcome && tool.ui && !outcome.result.isError && (
        <div data-testid="inspector-app">
          <AppFrame
            key={outcome.callId}
            serverId={serverId}
            serverName={tool.serverName}
            uri={tool.ui.resourceUri}
            tool={tool.rawName}
            toolCallId={outcome.callId}
            input={outcome.input}
            result={outcome.result}
          />
        </div>
      )}
    </div>
  );
}
