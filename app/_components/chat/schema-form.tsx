"use client";
/**
 * A form for tool arguments generated from the tool's JSON-schema `inputSchema`: strings (with
 * enum pickers and long-text areas), numbers and integers (with min/max), booleans, and nested
 * objects as fieldsets; arrays and anything else are edited as JSON in their own field. Small
 * on purpose: it covers every type the reference servers use without a form library.
 */
import { useState } from "react";
import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { fieldClass } from "../ui/primitives/input";

/** The JSON-schema subset the form reads. */
export interface FieldSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  format?: string;
}

const INPUT = `${fieldClass} mt-0.5 block px-2 py-1 text-xs`;

function typeOf(schema: FieldSchema, value: unknown): string {
  const declared = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (declared) return declared;
  if (schema.properties) return "object";
  return typeof value === "boolean" ? "boolean" : typeof value === "number" ? "number" : typeof value === "string" ? "string" : "json";
}

/** A field edited as JSON text (arrays, unknown types); invalid JSON keeps the last valid value and says so. */
function JsonField({ name, value, onChange }: { name: string; value: unknown; onChange: (v: unknown) => void }) {
  const [text, setText] = useState(() => JSON.stringify(value ?? null, null, 2));
  const [bad, setBad] = useState(false);
  return (
    <>
      <textarea
        aria-label={name}
        data-testid={`arg-${name}`}
        value={text}
        rows={Math.min(8, text.split("\n").length + 1)}
        onChange={(e) => {
          setText(e.target.value);
          try {
            onChange(JSON.parse(e.target.value));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
        className={`${INPUT} font-mono`}
      />
      {bad && <span className="text-xs text-red-700">Not valid JSON yet: the last valid value is kept.</span>}
    </>
  );
}

/** A text input, or a text area when the value starts long or multi-line (decided once, so typing never swaps the control). */
function StringField({ name, value, onChange }: { name: string; value: unknown; onChange: (v: unknown) => void }) {
  const text = typeof value === "string" ? value : "";
  const [long] = useState(() => text.length > 60 || text.includes("\n"));
  return long ? (
    <textarea
      aria-label={name}
      data-testid={`arg-${name}`}
      value={text}
      rows={4}
      onChange={(e) => onChange(e.target.value)}
      className={INPUT}
    />
  ) : (
    <input
      type="text"
      aria-label={name}
      data-testid={`arg-${name}`}
      value={text}
      onChange={(e) => onChange(e.target.value)}
      className={INPUT}
    />
  );
}

function Field({
  name,
  schema,
  value,
  required,
  onChange,
}: {
  name: string;
  schema: FieldSchema;
  value: unknown;
  required: boolean;
  onChange: (v: unknown) => void;
}) {
  const type = typeOf(schema, value);
  const label = (
    <span className="font-medium">
      {schema.title ?? name}
      {required && <span className="text-red-700"> *</span>}
      {schema.description && <span className="ml-1 font-normal text-muted-foreground">— {schema.description}</span>}
    </span>
  );
  if (schema.enum) {
    const options = schema.enum.map((v) => JSON.stringify(v));
    return (
      <label className="block text-xs">
        {label}
        <select
          aria-label={name}
          data-testid={`arg-${name}`}
          value={value === undefined ? "" : JSON.stringify(value)}
          onChange={(e) => onChange(e.target.value === "" ? undefined : JSON.parse(e.target.value))}
          className={INPUT}
        >
          {!required && <option value="">(not set)</option>}
          {options.map((o) => (
            <option key={o} value={o}>
              {String(JSON.parse(o))}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (type === "boolean") {
    return (
      <ChoiceLabel className="gap-2 text-xs">
        <Checkbox aria-label={name} data-testid={`arg-${name}`} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </ChoiceLabel>
    );
  }
  if (type === "number" || type === "integer") {
    return (
      <label className="block text-xs">
        {label}
        <input
          type="number"
          aria-label={name}
          data-testid={`arg-${name}`}
          step={type === "integer" ? 1 : "any"}
          min={schema.minimum}
          max={schema.maximum}
          value={typeof value === "number" ? value : ""}
          onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
          className={INPUT}
        />
      </label>
    );
  }
  if (type === "string") {
    return (
      <div className="block text-xs">
        {label}
        <StringField name={name} value={value} onChange={onChange} />
      </div>
    );
  }
  if (type === "object" && schema.properties) {
    return (
      <fieldset className="rounded border border-border p-2 text-xs">
        <legend>{label}</legend>
        <SchemaForm schema={schema} value={(value as Record<string, unknown>) ?? {}} onChange={onChange} />
      </fieldset>
    );
  }
  return (
    <div className="block text-xs">
      {label}
      <JsonField name={name} value={value} onChange={onChange} />
    </div>
  );
}

/** The form: one field per property, in schema order; properties the model sent but the schema lacks are kept and shown as JSON. */
export function SchemaForm({
  schema,
  value,
  onChange,
}: {
  schema: FieldSchema;
  value: Record<string, unknown>;
  onChange: (v: Record<string, unknown>) => void;
}) {
  const properties = schema.properties ?? {};
  const extra = Object.keys(value).filter((k) => !(k in properties));
  const set = (key: string, v: unknown) => {
    const next = { ...value };
    if (v === undefined) delete next[key];
    else next[key] = v;
    onChange(next);
  };
  return (
    <div data-testid="schema-form" className="space-y-2">
      {Object.entries(properties).map(([key, field]) => (
        <Field
          key={key}
          name={key}
          schema={field}
          value={value[key]}
          required={schema.required?.includes(key) ?? false}
          onChange={(v) => set(key, v)}
        />
      ))}
      {extra.map((key) => (
        <Field key={key} name={key} schema={{}} value={value[key]} required={false} onChange={(v) => set(key, v)} />
      ))}
      {Object.keys(properties).length === 0 && extra.length === 0 && (
        <p className="text-xs text-muted-foreground">This tool takes no arguments.</p>
      )}
    </div>
  );
}
