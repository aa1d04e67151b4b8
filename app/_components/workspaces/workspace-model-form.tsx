"use client";

import { toast } from "../ui/primitives/toast";
import { useEffect, useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";

interface ModelView {
  provider: string | null;
  model: string | null;
  baseUrl: string | null;
  apiKey: string | null;
}

/** The workspace default model: members use it unless they chose their own (owners/admins edit it). */
export function WorkspaceModelForm({ workspaceId, editable }: { workspaceId: string; editable: boolean }) {
  const url = `/api/workspaces/${workspaceId}/model`;
  const [view, setView] = useState<ModelView | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    api<ModelView>(url).then(setView, (e: Error) => setMessage(e.message));
  }, [url]);
  if (!view) return message ? <p className="field-error">{message}</p> : null;
  return (
    <form
      className="space-y-2"
      data-testid="workspace-model"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        const apiKey = String(form.get("apiKey") ?? "");
        try {
          setView(
            await api<ModelView>(url, {
              method: "PUT",
              json: {
                provider: form.get("provider") || null,
                model: form.get("model") || null,
                baseUrl: form.get("baseUrl") || null,
                ...(apiKey ? { apiKey } : {}),
              },
            }),
          );
          setMessage("Saved.");
          toast.success("Saved");
        } catch (err) {
          setMessage((err as Error).message);
        }
      }}
    >
      <h3 className="font-semibold">Workspace default model</h3>
      <fieldset disabled={!editable} className="grid grid-cols-2 gap-2">
        <Label className="mb-0">
          <span className="mb-1 block">Provider</span>
          <NativeSelect name="provider" defaultValue={view.provider ?? ""} aria-label="Workspace model provider">
            <option value="">(instance default)</option>
            <option value="openai">openai</option>
            <option value="anthropic">anthropic</option>
            <option value="openai-compatible">openai-compatible</option>
          </NativeSelect>
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">Model</span>
          <Input name="model" defaultValue={view.model ?? ""} aria-label="Workspace model" />
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">Base URL</span>
          <Input name="baseUrl" defaultValue={view.baseUrl ?? ""} aria-label="Workspace model base URL" />
        </Label>
        <Label className="mb-0">
          <span className="mb-1 block">API key {view.apiKey ? `(stored: ${view.apiKey})` : ""}</span>
          <Input name="apiKey" type="password" autoComplete="off" aria-label="Workspace model API key" />
        </Label>
      </fieldset>
      {editable && (
        <Button variant="secondary" type="submit">
          Save default model
        </Button>
      )}
      {message && <p className="text-sm text-muted-foreground">{message}</p>}
    </form>
  );
}
