"use client";
/**
 * Import servers on the Servers page: paste or upload Claude Desktop / Cursor `mcpServers` JSON,
 * VS Code `mcp.json` or `mcp_servers:` YAML, see each server with its validation result (secrets
 * masked, a stdio entry's exact launch for consent), type the secrets its inputs ask for, pick,
 * and save. Export links download the workspace's servers with placeholders for secrets.
 */
import { FileInput } from "../ui/primitives/file-input";
import { useState } from "react";
import type { ImportPreviewEntry } from "@/lib/servers/import-service";
import { ApiError, apiRequest, workspaceApiPath } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { Textarea } from "../ui/primitives/textarea";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** The import panel; `onImported` reloads the list. */
export function ImportPanel({ onImported, onCancel }: { onImported: () => void; onCancel: () => void }) {
  const ws = useWorkspaceSlug();
  // Links and downloads name the page's workspace in their path: a download is not a fetch.
  const importUrl = workspaceApiPath(ws, "servers/import");
  const exportUrl = (format: string) => workspaceApiPath(ws, `servers/export?format=${format}`);
  const [text, setText] = useState("");
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<ImportPreviewEntry[] | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(confirm?: string[]) {
    setBusy(true);
    setProblem(null);
    try {
      const body = JSON.stringify({ text, inputs, ...(confirm ? { confirm } : {}) });
      if (confirm) {
        await apiRequest<{ created: string[] }>(importUrl, { method: "POST", body });
        onImported();
        return;
      }
      const result = await apiRequest<{ servers: ImportPreviewEntry[] }>(importUrl, { method: "POST", body });
      setPreview(result.servers);
      // Nothing runs by default: valid remote servers are pre-picked, a stdio one waits for a tick.
      setChosen(new Set(result.servers.filter((s) => s.valid && !s.needsConsent).map((s) => s.name)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setProblem(error.message);
    } finally {
      setBusy(false);
    }
  }

  const wanted = [...new Map((preview ?? []).flatMap((s) => s.inputs).map((i) => [i.id, i])).values()];
  return (
    <div className="space-y-3 rounded-lg border border-border bg-surface p-4" data-testid="import-panel">
      <h2 className="font-medium">Import servers</h2>
      <p className="text-xs text-zinc-500">
        Paste a Claude Desktop or Cursor <code>mcpServers</code> JSON, a VS Code <code>.vscode/mcp.json</code>, or the command line's{" "}
        <code>mcp_servers:</code> YAML. Nothing is saved until you pick servers and confirm.
      </p>
      <Textarea
        className="h-40 font-mono text-xs"
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-label="Configuration to import"
        data-testid="import-text"
      />
      <FileInput
        accept=".json,.yaml,.yml,application/json"
        aria-label="Upload a configuration file"
        onChange={(e) => void e.target.files?.[0]?.text().then(setText)}
        className="text-xs"
      />
      {wanted.length > 0 && (
        <fieldset className="space-y-1 text-sm">
          <legend className="text-xs text-zinc-500">Secrets the configuration asks for</legend>
          {wanted.map((input) => (
            <Label key={input.id} className="mb-0 text-sm font-normal text-foreground">
              {input.description} <span className="text-xs text-muted-foreground">({input.id})</span>
              <Input
                type="password"
                className="ml-2 inline-block h-8 w-auto py-0.5"
                value={inputs[input.id] ?? ""}
                onChange={(e) => setInputs((v) => ({ ...v, [input.id]: e.target.value }))}
              />
            </Label>
          ))}
        </fieldset>
      )}
      {problem && <FieldError role="alert">{problem}</FieldError>}
      {preview && (
        <ul className="space-y-2" data-testid="import-preview">
          {preview.map((entry) => (
            <li
              key={entry.name}
              className="rounded border border-zinc-200 p-2 text-sm dark:border-zinc-800"
              data-testid={`import-${entry.name}`}
            >
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  disabled={!entry.valid}
                  checked={chosen.has(entry.name)}
                  onChange={(e) =>
                    setChosen((set) => {
                      const next = new Set(set);
                      if (e.target.checked) next.add(entry.name);
                      else next.delete(entry.name);
                      return next;
                    })
                  }
                  aria-label={`Import ${entry.name}`}
                />
                <span className="font-medium">{entry.name}</span>
                <span className={`text-xs ${entry.valid ? "text-emerald-700" : "text-red-700"}`} data-testid="import-verdict">
                  {entry.valid ? "ready" : entry.error}
                </span>
              </label>
              {entry.launch && (
                <div className="mt-1 text-xs">
                  <p className="text-amber-800 dark:text-amber-300">
                    Runs this command on the server (sandboxed); tick it only if you trust it:
                  </p>
                  <pre className="whitespace-pre-wrap rounded bg-zinc-100 p-2 dark:bg-zinc-800" data-testid="import-launch">
                    {entry.launch}
                  </pre>
                </div>
              )}
              <pre className="mt-1 whitespace-pre-wrap text-xs text-zinc-500">{JSON.stringify(entry.config, null, 2)}</pre>
            </li>
          ))}
        </ul>
      )}
      <div className="flex gap-2">
        <Button
          type="button"
          variant="secondary"
          disabled={busy || !text.trim()}
          onClick={() => void send()}
          data-testid="import-preview-button"
        >
          Preview
        </Button>
        <Button type="button" disabled={busy || chosen.size === 0} onClick={() => void send([...chosen])} data-testid="import-confirm">
          Import {chosen.size || ""} selected
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <span className="ml-auto text-xs">
          Export:{" "}
          <a className="underline" href={exportUrl("yaml")} download data-testid="export-yaml">
            YAML
          </a>{" "}
          ·{" "}
          <a className="underline" href={exportUrl("json")} download data-testid="export-json">
            JSON
          </a>
        </span>
      </div>
    </div>
  );
}
