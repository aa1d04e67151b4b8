"use client";
/**
 * One price table (docs/usage.md#prices): the instance's (instance administrators) or a workspace's
 * own (its owners and admins), each row removable, a form to set a price, and the built-in defaults
 * beneath for reference. A change applies to requests recorded after it; recorded costs stay.
 */
import { useCallback, useEffect, useState } from "react";
import type { pricesView } from "@/lib/use-cases/usage";
import { api, ApiError } from "../api-client";
import { Button } from "../ui/primitives/button";
import { Input } from "../ui/primitives/input";
import { FieldError, Label } from "../ui/primitives/label";
import { ScrollX } from "../ui/primitives/scroll-x";
import { NativeSelect } from "../ui/primitives/select";

type Prices = Awaited<ReturnType<typeof pricesView>>;
type Row = Prices["defaults"][number];

/** The providers a price can name (lib/models/model-config.ts PROVIDERS). */
const PROVIDER_OPTIONS = ["openai", "anthropic", "openai-compatible"] as const;
const FIELDS = ["input", "output", "cached"] as const;
type Field = (typeof FIELDS)[number];

const perM = (usd: number) => `$${usd.toLocaleString("en-US", { maximumFractionDigits: 6 })}`;

/** The form's errors by field, checked as the server checks them (USD 0–10,000 per million tokens). */
export function priceFormErrors(form: { model: string } & Record<Field, string>): Partial<Record<"model" | Field, string>> {
  const errors: Partial<Record<"model" | Field, string>> = {};
  if (!form.model.trim()) errors.model = "Name the model.";
  else if (/\s/.test(form.model.trim())) errors.model = "A model id has no spaces.";
  for (const field of FIELDS) {
    const text = form[field].trim();
    if (text === "") {
      if (field !== "cached") errors[field] = "Required.";
      continue;
    }
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || value > 10_000) errors[field] = "A number from 0 to 10,000.";
  }
  return errors;
}

function PriceRows({ rows, caption, onRemove }: { rows: Row[]; caption: string; onRemove?: (row: Row) => void }) {
  return (
    <ScrollX label={caption}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="text-left text-muted-foreground">
            <th scope="col">Provider</th>
            <th scope="col">Model</th>
            <th scope="col" className="text-right">
              Input
            </th>
            <th scope="col" className="text-right">
              Output
            </th>
            <th scope="col" className="text-right">
              Cached
            </th>
            {onRemove && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={`${row.provider}/${row.model}`} data-testid={`price-${row.provider}-${row.model}`}>
              <td>{row.provider}</td>
              <td className="break-all">{row.model}</td>
              <td className="text-right">{perM(row.input)}</td>
              <td className="text-right">{perM(row.output)}</td>
              <td className="text-right">{perM(row.cached)}</td>
              {onRemove && (
                <td className="text-right">
                  <Button type="button" size="sm" variant="secondary" onClick={() => onRemove(row)}>
                    Remove<span className="sr-only"> the price of {row.model}</span>
                  </Button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}

/** The `scope` price table, read and changed through workspace `workspaceId`'s prices API. */
export function PriceTable({ workspaceId, scope }: { workspaceId: string; scope: "instance" | "workspace" }) {
  const path = `/api/workspaces/${encodeURIComponent(workspaceId)}/usage/prices`;
  const [prices, setPrices] = useState<Prices | null>(null);
  const [form, setForm] = useState({ provider: "openai", model: "", input: "", output: "", cached: "" });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const id = `price-${scope}`;

  const load = useCallback(() => api<Prices>(path).then(setPrices, (e: unknown) => setMessage((e as Error).message)), [path]);
  useEffect(() => {
    void load();
  }, [load]);

  const send = async (body: Record<string, unknown>, done: string) => {
    try {
      setPrices(await api<Prices>(path, { method: "PUT", json: { scope, ...body } }));
      setMessage(done);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.field) setErrors({ [e.field]: e.message });
      setMessage(e instanceof Error ? e.message : String(e));
      return false;
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found = priceFormErrors(form);
    setErrors(found);
    if (Object.keys(found).length) return setMessage(null);
    const number = (text: string) => (text.trim() === "" ? undefined : Number(text));
    const saved = await send(
      {
        provider: form.provider,
        model: form.model.trim(),
        input: number(form.input),
        output: number(form.output),
        cached: number(form.cached),
      },
      `Saved the price of ${form.model.trim()}.`,
    );
    if (saved) setForm({ ...form, model: "", input: "", output: "", cached: "" });
  };

  if (!prices) return message ? <p className="text-sm text-destructive">{message}</p> : null;
  const rows = scope === "instance" ? prices.instance : prices.workspace;
  const canSet = scope === "instance" ? prices.canSetInstance : prices.canSetWorkspace;
  const field = (name: Field | "model", label: string, hint?: string) => (
    <div className="min-w-0 flex-1 basis-28 space-y-1">
      <Label htmlFor={`${id}-${name}`}>{label}</Label>
      <Input
        id={`${id}-${name}`}
        inputMode={name === "model" ? undefined : "decimal"}
        value={form[name]}
        placeholder={hint}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
        onChange={(e) => setForm({ ...form, [name]: e.target.value })}
      />
      {errors[name] && <FieldError id={`${id}-${name}-error`}>{errors[name]}</FieldError>}
    </div>
  );
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-md border border-border p-3" data-testid={`${id}s`}>
      <h2 id={`${id}-heading`} className="text-base font-semibold">
        {scope === "instance" ? "Prices of this instance" : "This workspace's prices"}
      </h2>
      <p className="text-sm text-muted-foreground">
        US dollars per million tokens.{" "}
        {scope === "instance"
          ? "They replace the built-in defaults below for every workspace without its own price."
          : "For the workspace's own keys: they come before the instance's prices and the defaults."}{" "}
        A change applies to requests recorded after it; costs already recorded keep theirs.
      </p>
      {rows.length ? (
        <PriceRows
          rows={rows}
          caption={scope === "instance" ? "Prices of this instance" : "This workspace's prices"}
          onRemove={
            canSet
              ? (row) => void send({ provider: row.provider, model: row.model, remove: true }, `Removed the price of ${row.model}.`)
              : undefined
          }
        />
      ) : (
        <p className="text-sm">No prices set here yet.</p>
      )}
      {canSet && (
        <form onSubmit={submit} noValidate className="flex flex-wrap items-start gap-2" data-testid={`${id}-form`}>
          <div className="min-w-0 flex-1 basis-36 space-y-1">
            <Label htmlFor={`${id}-provider`}>Provider</Label>
            <NativeSelect id={`${id}-provider`} value={form.provider} onChange={(e) => setForm({ ...form, provider: e.target.value })}>
              {PROVIDER_OPTIONS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </NativeSelect>
          </div>
          {field("model", "Model", "gpt-4o")}
          {field("input", "Input")}
          {field("output", "Output")}
          {field("cached", "Cached input", "as input")}
          <Button type="submit" className="self-end">
            Save price
          </Button>
        </form>
      )}
      {message && (
        <p role="status" className="text-sm text-muted-foreground">
          {message}
        </p>
      )}
      <details>
        <summary className="cursor-pointer text-sm">Built-in defaults</summary>
        <PriceRows rows={prices.defaults} caption="Built-in default prices" />
      </details>
    </section>
  );
}
