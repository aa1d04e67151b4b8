"use client";
/** Workspace settings for tool search (docs/tool-search.md): threshold, token budget, always-loaded tools. */
import { useEffect, useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { Textarea } from "../ui/primitives/textarea";

interface ToolSearchView {
  threshold: number;
  maxTokens: number;
  alwaysLoaded: string[];
}

/** Members see the settings; owners/admins change them. */
export function ToolSearchForm({ workspaceId, editable }: { workspaceId: string; editable: boolean }) {
  const url = `/api/workspaces/${workspaceId}/tool-search`;
  const [view, setView] = useState<ToolSearchView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    api<ToolSearchView>(url).then(setView, (e: Error) => setMessage(e.message));
  }, [url]);
  if (!view) return message ? <p className="field-error">{message}</p> : null;
  return (
    <form
      className="space-y-2"
      data-testid="tool-search-settings"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const alwaysLoaded = String(form.get("alwaysLoaded") ?? "")
          .split(/[\s,]+/)
          .filter(Boolean);
        try {
          setView(
            await api<ToolSearchView>(url, {
              method: "PUT",
              json: { threshold: Number(form.get("threshold")), maxTokens: Number(form.get("maxTokens")), alwaysLoaded },
            }),
          );
          setMessage("Saved.");
        } catch (err) {
          setMessage((err as Error).message);
        }
      }}
    >
      <h3 className="font-semibold">Tool search</h3>
      <p className="text-sm text-zinc-500">
        With more tools than the threshold (or more estimated tokens than the budget), the model gets the tools below, the ones used
        recently and a search tool instead of every tool. 0 turns search off up to the provider limit of 128 tools.
      </p>
      <fieldset disabled={!editable} className="grid grid-cols-2 gap-2">
        <Label className="mb-0">
          <span className="mb-1 block">Threshold (tools)</span>
          <Input name="threshold" type="number" min={0} max={128} defaultValue={view.threshold} aria-label="Tool search threshold" />
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">Token budget</span>
          <Input name="maxTokens" type="number" min={1000} defaultValue={view.maxTokens} aria-label="Tool search token budget" />
        </Label>
        <Label className="col-span-2 mb-0">
          <span className="mb-1 block">Always loaded (tool names like mcp_server_tool, one per line)</span>
          <Textarea
            className="font-mono"
            name="alwaysLoaded"
            rows={3}
            defaultValue={view.alwaysLoaded.join("\n")}
            aria-label="Always loaded tools"
          />
        </Label>
      </fieldset>
      {editable && (
        <Button variant="secondary" type="submit">
          Save tool search
        </Button>
      )}
      {message && <p className="text-sm text-zinc-500">{message}</p>}
    </form>
  );
}
