"use client";

import { useState } from "react";
import { ApiError, saveServer } from "../api-client";
import { EMPTY_FORM, formFieldOf, formToConfig, type ServerFormValues } from "./form-model";

/** Props of the add/edit form. `serverId` switches it to editing. */
export interface ServerFormProps {
  initial?: ServerFormValues;
  serverId?: string;
  isAdmin: boolean;
  onSaved: () => void;
  onCancel: () => void;
}

type Errors = Partial<Record<keyof ServerFormValues | "general", string>>;

/** Add or edit one server, every server config key (docs/configuration.md), with the API's errors shown at their field. */
export function ServerForm({ initial = EMPTY_FORM, serverId, isAdmin, onSaved, onCancel }: ServerFormProps) {
  const [values, setValues] = useState<ServerFormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof ServerFormValues>(key: K, value: ServerFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await saveServer(serverId, { name: values.name.trim(), config: formToConfig(values) });
    } catch (error) {
      setBusy(false);
      if (!(error instanceof ApiError)) throw error;
      setErrors({ [formFieldOf(error.field) ?? "general"]: error.message });
      return;
    }
    setBusy(false);
    onSaved();
  }

  const text = (
    key: keyof ServerFormValues,
    label: string,
    props: { placeholder?: string; type?: string; multiline?: boolean; hint?: string } = {},
  ) => (
    <div>
      <label className="label" htmlFor={`f-${key}`}>
        {label}
      </label>
      {props.multiline ? (
        <textarea
          id={`f-${key}`}
          name={key}
          className="input font-mono"
          rows={3}
          placeholder={props.placeholder}
          value={values[key] as string}
          aria-invalid={!!errors[key]}
          onChange={(e) => set(key, e.target.value as never)}
        />
      ) : (
        <input
          id={`f-${key}`}
          name={key}
          className="input"
          type={props.type ?? "text"}
          placeholder={props.placeholder}
          value={values[key] as string}
          aria-invalid={!!errors[key]}
          onChange={(e) => set(key, e.target.value as never)}
        />
      )}
      {props.hint && <p className="mt-1 text-xs text-zinc-500">{props.hint}</p>}
      {errors[key] && (
        <p className="field-error" data-testid={`field-error-${key}`}>
          {errors[key]}
        </p>
      )}
    </div>
  );
  const check = (key: keyof ServerFormValues, label: string) => (
    <div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name={key} checked={values[key] as boolean} onChange={(e) => set(key, e.target.checked as never)} />
        {label}
      </label>
      {errors[key] && (
        <p className="field-error" data-testid={`field-error-${key}`}>
          {errors[key]}
        </p>
      )}
    </div>
  );

  return (
    <form
      onSubmit={submit}
      className="space-y-5 rounded-xl border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="server-form"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name (becomes the tool prefix)", { placeholder: "github" })}
        <fieldset>
          <legend className="label">Transport</legend>
          <div className="flex gap-4 pt-2 text-sm">
            <label className="flex items-center gap-1">
              <input type="radio" name="transport" checked={values.transport === "http"} onChange={() => set("transport", "http")} /> Remote
              (HTTP)
            </label>
            <label className="flex items-center gap-1" title={isAdmin ? "" : "Only instance administrators can add stdio servers"}>
              <input
                type="radio"
                name="transport"
                disabled={!isAdmin}
                checked={values.transport === "stdio"}
                onChange={() => set("transport", "stdio")}
              />{" "}
              Local (stdio)
            </label>
          </div>
        </fieldset>
      </div>

      {values.transport === "http" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {text("url", "URL", { placeholder: "https://mcp.example.com/mcp" })}
          {text("headers", "Headers (one `Name: value` per line; values are encrypted)", {
            multiline: true,
            placeholder: "Authorization: Bearer …",
          })}
          {check("oauth", "Requires OAuth sign-in (auth: oauth)")}
          <div className="grid gap-2">
            {text("oauthClientId", "Pre-registered OAuth client id (optional)")}
            {text("oauthClientSecret", "OAuth client secret (optional)", { type: "password" })}
            {text("oauthScope", "OAuth scope (optional)")}
          </div>
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          {text("command", "Command", { placeholder: "npx" })}
          {text("args", "Arguments (one per line)", { multiline: true, placeholder: "-y\n@modelcontextprotocol/server-memory" })}
          {text("env", "Environment (KEY=value per line; values are encrypted)", { multiline: true })}
          <div>
            <label className="label" htmlFor="f-network">
              Network inside the sandbox
            </label>
            <select
              id="f-network"
              name="network"
              className="input"
              value={values.network}
              onChange={(e) => set("network", e.target.value as ServerFormValues["network"])}
            >
              <option value="off">Off</option>
              <option value="on">On</option>
              <option value="hosts">Only these hosts</option>
            </select>
            {values.network === "hosts" && (
              <input
                className="input mt-2"
                name="networkHosts"
                placeholder="api.example.com, …"
                value={values.networkHosts}
                onChange={(e) => set("networkHosts", e.target.value)}
              />
            )}
            {errors.network && (
              <p className="field-error" data-testid="field-error-network">
                {errors.network}
              </p>
            )}
          </div>
          {text("cwd", "Working directory (inside the sandbox home)")}
          {text("readOnlyPaths", "Read-only shared paths (one per line)", { multiline: true })}
        </div>
      )}

      <div className="grid gap-4 sm:grid-cols-3">
        {text("timeout", "Tool call timeout (s, default 120)", { type: "text" })}
        {text("connectTimeout", "Connect timeout (s, default 60)", { type: "text" })}
        <div className="space-y-2 pt-5">
          {check("enabled", "Enabled")}
          {check("parallel", "Tools may run in parallel")}
          {check("sharedCredentials", "Shared credentials (members use an admin's)")}
        </div>
        {text("include", "Only these tools (raw names, comma-separated)")}
        {text("exclude", "All but these tools")}
        <div className="space-y-2 pt-5">
          {check("resources", "Resource tools")}
          {check("prompts", "Prompt tools")}
        </div>
      </div>

      <details className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
        <summary className="cursor-pointer text-sm font-medium">Sampling (server-initiated LLM requests)</summary>
        <div className="mt-3 grid gap-4 sm:grid-cols-3">
          {check("samplingEnabled", "Allow sampling")}
          {text("samplingModel", "Model override")}
          {text("samplingAllowedModels", "Allowed models (comma-separated)")}
          {text("samplingMaxTokens", "Max tokens per request")}
          {text("samplingTimeout", "Timeout (s)")}
          {text("samplingMaxRpm", "Requests per minute")}
          {text("samplingMaxToolRounds", "Max tool rounds")}
          <div>
            <label className="label" htmlFor="f-samplingLogLevel">
              Audit log level
            </label>
            <select
              id="f-samplingLogLevel"
              name="samplingLogLevel"
              className="input"
              value={values.samplingLogLevel}
              onChange={(e) => set("samplingLogLevel", e.target.value)}
            >
              <option value="">default (info)</option>
              <option>debug</option>
              <option>info</option>
              <option>warning</option>
              <option>error</option>
            </select>
          </div>
        </div>
      </details>

      {errors.general && (
        <p role="alert" className="field-error" data-testid="field-error-general">
          {errors.general}
        </p>
      )}
      <div className="flex gap-2">
        <button className="btn-primary" type="submit" disabled={busy}>
          {busy ? "Saving…" : serverId ? "Save changes" : "Add server"}
        </button>
        <button className="btn-secondary" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
