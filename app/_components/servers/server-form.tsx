"use client";

import { useState } from "react";
import type { ServerConfig } from "@/lib/mcp/config";
import { ApiError, apiRequest, saveServer, workspaceApiPath } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { Textarea } from "../ui/primitives/textarea";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { EMPTY_FORM, formFieldOf, formToConfig, type ServerFormValues } from "./form-model";

/** Props of the add/edit form. `serverId` switches it to editing. */
export interface ServerFormProps {
  initial?: ServerFormValues;
  serverId?: string;
  /** The stored config of the server being edited: keys it spells out are kept as they are. */
  original?: ServerConfig;
  isAdmin: boolean;
  onSaved: () => void;
  onCancel: () => void;
}

type Errors = Partial<Record<keyof ServerFormValues | "general", string>>;

/**
 * Add or edit one server: the essentials first (name, URL or command), every other config key
 * (docs/configuration.md) folded by topic with its key as a hint, the API's errors at their field,
 * and "Test connection" before saving.
 */
export function ServerForm({ initial = EMPTY_FORM, serverId, original, isAdmin, onSaved, onCancel }: ServerFormProps) {
  const ws = useWorkspaceSlug();
  const [values, setValues] = useState<ServerFormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const set = <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await saveServer(ws, serverId, { name: values.name.trim(), config: formToConfig(values, original) });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) throw error;
      setErrors({ [formFieldOf(error.field) ?? "general"]: error.message });
      return;
    }
    setBusy(false);
    onSaved();
  }

  async function testConnection() {
    setTest(null);
    setErrors({});
    setBusy(true);
    try {
      const body = { name: values.name.trim() || undefined, config: formToConfig(values, original), ...(serverId ? { serverId } : {}) };
      setTest(
        await apiRequest<{ ok: boolean; message: string }>(workspaceApiPath(ws, "servers/test"), {
          method: "POST",
          body: JSON.stringify(body),
        }),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setErrors({ [formFieldOf(error.field) ?? "general"]: error.message });
    } finally {
      setBusy(false);
    }
  }

  const text = (
    key: keyof ServerFormValues,
    label: string,
    props: { placeholder?: string; type?: string; multiline?: boolean; hint?: string; configKey?: string } = {},
  ) => (
    <div>
      <Label htmlFor={`f-${key}`}>{label}</Label>
      {props.multiline ? (
        <Textarea
          id={`f-${key}`}
          name={key}
          className="font-mono"
          rows={3}
          placeholder={props.placeholder}
          value={values[key] as string}
          aria-invalid={!!errors[key]}
          onChange={(e) => set(key, e.target.value as never)}
        />
      ) : (
        <Input
          id={`f-${key}`}
          name={key}
          type={props.type ?? "text"}
          placeholder={props.placeholder}
          value={values[key] as string}
          aria-invalid={!!errors[key]}
          onChange={(e) => set(key, e.target.value as never)}
        />
      )}
      {(props.hint || props.configKey) && (
        <p className="mt-1 text-xs text-zinc-500">
          {props.hint}
          {props.configKey && (
            <>
              {props.hint ? " · " : ""}
              <code>{props.configKey}</code>
            </>
          )}
        </p>
      )}
      {errors[key] && (
        <p className="field-error" data-testid={`field-error-${key}`}>
          {errors[key]}
        </p>
      )}
    </div>
  );
  const check = (key: keyof ServerFormValues, label: string, configKey?: string) => (
    <div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name={key} checked={values[key] as boolean} onChange={(e) => set(key, e.target.checked as never)} />
        {label}
        {configKey && <code className="text-xs text-zinc-500">{configKey}</code>}
      </label>
      {errors[key] && (
        <p className="field-error" data-testid={`field-error-${key}`}>
          {errors[key]}
        </p>
      )}
    </div>
  );

  // A section opens by itself when one of its fields has an error.
  const section = (title: string, fields: (keyof ServerFormValues)[], children: React.ReactNode) => (
    <details className="rounded-md border border-border p-3" open={fields.some((f) => errors[f]) || undefined}>
      <summary className="cursor-pointer text-sm font-medium">{title}</summary>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">{children}</div>
    </details>
  );
  const stdio = values.transport === "stdio";

  return (
    <form onSubmit={submit} className="space-y-4 rounded-lg border border-border bg-surface p-5" data-testid="server-form">
      <h2 className="font-medium" data-testid="server-form-heading">
        {serverId ? `Edit server "${initial.name}"` : stdio ? "Add a local (stdio) server" : "Add a remote server"}
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name (becomes the tool prefix)", { placeholder: "github", hint: "letters, digits, _ - ." })}
        <fieldset>
          <legend className="mb-1 block text-xs font-medium text-muted-foreground">Where it runs</legend>
          <div className="flex gap-4 pt-2 text-sm">
            <label className="flex items-center gap-1">
              <input type="radio" name="transport" checked={!stdio} onChange={() => set("transport", "http")} /> Remote (HTTP)
            </label>
            <label className="flex items-center gap-1" title={isAdmin ? "" : "Only instance administrators can add stdio servers"}>
              <input type="radio" name="transport" disabled={!isAdmin} checked={stdio} onChange={() => set("transport", "stdio")} /> Local
              (stdio)
            </label>
          </div>
        </fieldset>
        {stdio ? (
          <>
            {text("command", "Command", { placeholder: "npx", configKey: "command" })}
            {text("args", "Arguments (one per line)", {
              multiline: true,
              placeholder: "-y\n@modelcontextprotocol/server-memory",
              hint: "exactly as typed",
              configKey: "args",
            })}
            {text("env", "Environment variables (KEY=value per line)", { multiline: true, hint: "values are encrypted", configKey: "env" })}
          </>
        ) : (
          <>
            {text("url", "URL", { placeholder: "https://mcp.example.com/mcp", configKey: "url" })}
            {text("headers", "Headers (one `Name: value` per line)", {
              multiline: true,
              placeholder: "Authorization: Bearer …",
              hint: "values are encrypted",
              configKey: "headers",
            })}
          </>
        )}
        <div className="space-y-2">
          {!stdio && check("secretUrl", "Secret address: shown masked to everyone")}
          {!stdio && check("oauth", "Requires OAuth sign-in (auth: oauth)")}
          {check("enabled", "Enabled (connect and offer its tools)", "enabled")}
          {check(
            "sharedCredentials",
            "Shared credentials (one account, connected for everyone by an owner or admin)",
            "credentials: shared",
          )}
        </div>
      </div>

      {!stdio &&
        values.oauth &&
        section(
          "OAuth client (optional: only when the authorization server cannot register Switchboard itself)",
          ["oauthClientId", "oauthClientSecret", "oauthScope"],
          <>
            {text("oauthClientId", "Pre-registered client id", { configKey: "oauth.client_id" })}
            {text("oauthClientSecret", "Client secret", { type: "password", configKey: "oauth.client_secret" })}
            {text("oauthScope", "Scope", { configKey: "oauth.scope" })}
          </>,
        )}

      {stdio &&
        section(
          "Sandbox",
          ["network", "cwd", "readOnlyPaths"],
          <>
            <div>
              <Label htmlFor="f-network">Network inside the sandbox</Label>
              <NativeSelect
                id="f-network"
                name="network"
                value={values.network}
                onChange={(e) => set("network", e.target.value as ServerFormValues["network"])}
              >
                <option value="off">Off</option>
                <option value="on">On</option>
                {/* A host list is refused by the sandbox; it is only shown for a config that already has one. */}
                {values.network === "hosts" && <option value="hosts">Only these hosts (not supported: pick On or Off)</option>}
              </NativeSelect>
              <p className="mt-1 text-xs text-zinc-500">
                <code>network</code>
              </p>
              {errors.network && (
                <p className="field-error" data-testid="field-error-network">
                  {errors.network}
                </p>
              )}
            </div>
            {text("cwd", "Working directory (inside the sandbox home)", { configKey: "cwd" })}
            {text("readOnlyPaths", "Host folders shared read-only (one per line)", { multiline: true, configKey: "read_only_paths" })}
          </>,
        )}

      {section(
        "Timeouts and protocol",
        ["timeout", "maxTotalTimeout", "connectTimeout", "parallel", "legacyProtocol"],
        <>
          {text("timeout", "Tool call timeout (seconds, default 120)", { configKey: "timeout" })}
          {text("maxTotalTimeout", "Tool call ceiling, whatever its progress (seconds, default 900)", {
            configKey: "max_total_timeout",
          })}
          {text("connectTimeout", "Connect timeout (seconds, default 60)", { configKey: "connect_timeout" })}
          {check("parallel", "Tools may run in parallel", "supports_parallel_tool_calls")}
          {check("legacyProtocol", "Hold to protocol 2025-11-25 (for tools that still ask mid-call)", "protocol")}
        </>,
      )}

      {section(
        "Tool filters",
        ["include", "exclude", "resources", "prompts"],
        <>
          <div>
            {check("includeOn", "Offer only the tools listed here", "tools.include")}
            {values.includeOn && text("include", "Tools to offer (raw names, comma-separated; empty = none)")}
          </div>
          <div>
            {check("excludeOn", "Hide the tools listed here", "tools.exclude")}
            {values.excludeOn && text("exclude", "Tools to hide (raw names, comma-separated)")}
          </div>
          {check("resources", "Let the agent list and read resources", "tools.resources")}
          {check("prompts", "Let the agent list and get prompts", "tools.prompts")}
        </>,
      )}

      {section(
        "Sampling (the server asks your model)",
        [
          "samplingEnabled",
          "samplingReview",
          "samplingModel",
          "samplingAllowedModels",
          "samplingMaxTokens",
          "samplingTimeout",
          "samplingMaxRpm",
          "samplingMaxToolRounds",
          "samplingLogLevel",
        ],
        <>
          {check("samplingEnabled", "Allow sampling", "sampling.enabled")}
          {check("samplingReview", "Show me each request and answer to approve", "sampling.review")}
          {text("samplingModel", "Model to use instead of mine", { configKey: "sampling.model" })}
          {text("samplingAllowedModels", "Models the server may ask for (comma-separated)", { configKey: "sampling.allowed_models" })}
          {text("samplingMaxTokens", "Most tokens per request (default 4096)", { configKey: "sampling.max_tokens_cap" })}
          {text("samplingTimeout", "Timeout (seconds, default 30)", { configKey: "sampling.timeout" })}
          {text("samplingMaxRpm", "Requests per minute (default 10)", { configKey: "sampling.max_rpm" })}
          {text("samplingMaxToolRounds", "Tool rounds per request (default 5)", { configKey: "sampling.max_tool_rounds" })}
          <div>
            <Label htmlFor="f-samplingLogLevel">Audit log level</Label>
            <NativeSelect
              id="f-samplingLogLevel"
              name="samplingLogLevel"
              value={values.samplingLogLevel}
              onChange={(e) => set("samplingLogLevel", e.target.value)}
            >
              <option value="">default (info)</option>
              <option>debug</option>
              <option>info</option>
              <option>warning</option>
              <option>error</option>
            </NativeSelect>
            <p className="mt-1 text-xs text-zinc-500">
              <code>sampling.log_level</code>
            </p>
          </div>
        </>,
      )}

      {errors.general && (
        <p role="alert" className="field-error" data-testid="field-error-general">
          {errors.general}
        </p>
      )}
      {test && (
        <p role="status" className={test.ok ? "text-sm text-emerald-700" : "field-error"} data-testid="test-connection-result">
          {test.message}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : serverId ? "Save changes" : "Add server"}
        </Button>
        <Button variant="secondary" type="button" onClick={() => void testConnection()} disabled={busy} data-testid="test-connection">
          Test connection
        </Button>
        <Button variant="secondary" type="button" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
