"use client";
/** The user's own model: provider, model, base URL and API key (shown masked, never in clear). */
import { toast } from "../ui/primitives/toast";
import { useCallback, useEffect, useState } from "react";
import { apiRequest, getModelSettings, type ModelSettingsView, saveModelSettings, workspaceApiPath } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

// Where the model in use comes from, in the words of the precedence sentence above the form.
function sourceLabel(view: ModelSettingsView): string {
  if (view.effective.ok && view.effective.source === "user") return "your choice";
  if (view.effective.ok && view.effective.source === "workspace") return `default of ${view.workspace?.name ?? "this workspace"}`;
  return "instance default";
}

// The empty provider: what a chat falls back to here (the workspace default, else the instance's).
function fallbackLabel(view: ModelSettingsView | null): string {
  if (view?.workspace?.provider) return `Workspace default (${view.workspace.provider} / ${view.workspace.model})`;
  return `Instance default${view?.instance.provider ? ` (${view.instance.provider} / ${view.instance.model})` : ""}`;
}

/** The form: the caller's own model, and the one that wins in the workspace on screen. */
export function ModelSettingsForm() {
  const ws = useWorkspaceSlug();
  const [view, setView] = useState<ModelSettingsView | null>(null);
  const [form, setForm] = useState({ provider: "", model: "", baseUrl: "", apiKey: "" });
  const [message, setMessage] = useState<{ tone: "ok" | "error"; text: string } | null>(null);

  const load = useCallback((v: ModelSettingsView) => {
    setView(v);
    setForm({ provider: v.provider ?? "", model: v.model ?? "", baseUrl: v.baseUrl ?? "", apiKey: "" });
  }, []);
  useEffect(() => {
    getModelSettings(ws).then(load, (e: Error) => setMessage({ tone: "error", text: e.message }));
  }, [load, ws]);

  const save = async (extra: { clearApiKey?: boolean } = {}) => {
    setMessage(null);
    try {
      const body = {
        provider: form.provider || null,
        model: form.model || null,
        baseUrl: form.baseUrl || null,
        ...(form.apiKey ? { apiKey: form.apiKey } : {}),
        ...extra,
      };
      load(await saveModelSettings(ws, body));
      setMessage({ tone: "ok", text: "Saved." });
      toast.success("Saved");
    } catch (e) {
      setMessage({ tone: "error", text: (e as Error).message });
    }
  };

  // Tests the saved settings: the model the next chat would use, through the same SSRF guard.
  const test = async () => {
    setMessage(null);
    try {
      const result = await apiRequest<{ ok: boolean; message: string }>(workspaceApiPath(ws, "settings/model/test"), {
        method: "POST",
        body: "{}",
      });
      setMessage({ tone: result.ok ? "ok" : "error", text: result.message });
    } catch (e) {
      setMessage({ tone: "error", text: (e as Error).message });
    }
  };

  const input = "mt-1";
  return (
    <form
      data-testid="model-settings"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2 className="text-lg font-semibold">Model</h2>
      {view && (
        <p data-testid="model-effective" className="text-sm text-muted-foreground">
          {view.effective.ok
            ? `In use here: ${view.effective.provider} / ${view.effective.model} (${sourceLabel(view)})`
            : view.effective.reason}
        </p>
      )}
      {/* Disabled until loaded: a late load must not overwrite what the user already typed. */}
      <fieldset disabled={!view} className="space-y-3">
        <Label className="mb-0">
          Provider
          <NativeSelect
            aria-label="Provider"
            value={form.provider}
            onChange={(e) => setForm({ ...form, provider: e.target.value })}
            className={input}
          >
            <option value="">{fallbackLabel(view)}</option>
            <option value="openai">OpenAI</option>
            <option value="anthropic">Anthropic</option>
            <option value="openai-compatible">OpenAI-compatible endpoint</option>
          </NativeSelect>
        </Label>
        <Label className="mb-0">
          Model
          <Input
            aria-label="Model"
            value={form.model}
            onChange={(e) => setForm({ ...form, model: e.target.value })}
            placeholder="e.g. gpt-4.1-mini"
            className={input}
          />
        </Label>
        <Label className="mb-0">
          Base URL <span className="text-muted-foreground">(required for OpenAI-compatible; optional otherwise)</span>
          <Input
            aria-label="Base URL"
            value={form.baseUrl}
            onChange={(e) => setForm({ ...form, baseUrl: e.target.value })}
            placeholder="https://…/v1"
            className={input}
          />
        </Label>
        <Label className="mb-0">
          API key{" "}
          {view?.apiKey && (
            <span data-testid="api-key-masked" className="text-muted-foreground">
              (stored: {view.apiKey})
            </span>
          )}
          <Input
            aria-label="API key"
            type="password"
            autoComplete="off"
            value={form.apiKey}
            onChange={(e) => setForm({ ...form, apiKey: e.target.value })}
            placeholder={view?.apiKey ? "leave empty to keep the stored key" : ""}
            className={input}
          />
        </Label>
        <div className="flex flex-wrap gap-2">
          <Button type="submit">Save model settings</Button>
          <Button
            type="button"
            variant="secondary"
            onClick={() => void test()}
            data-testid="test-model"
            title="Sends one short request to the saved model"
          >
            Test connection
          </Button>
          {view?.apiKey && (
            <Button type="button" variant="secondary" onClick={() => void save({ clearApiKey: true })}>
              Remove stored key
            </Button>
          )}
        </div>
      </fieldset>
      {message && (
        <p
          role={message.tone === "error" ? "alert" : "status"}
          className={`text-sm ${message.tone === "error" ? "text-red-700" : "text-emerald-700"}`}
        >
          {message.text}
        </p>
      )}
    </form>
  );
}
