"use client";

import { Checkbox, ChoiceLabel } from "../ui/primitives/checkbox";
import { useState } from "react";
import type { PendingElicitationView } from "@/lib/runtime/elicitations";
import { answerElicitation } from "../api-client";
import { Button } from "../ui/primitives/button";
import { DialogDescription, DialogTitle } from "../ui/primitives/dialog";
import { Input } from "../ui/primitives/input";
import { Label } from "../ui/primitives/label";
import { NativeSelect } from "../ui/primitives/select";
import { contentOf, fieldsOf, type ElicitField } from "./elicitation-form-model";
import { refusedAnswer } from "./refused-answer";

/** A pending elicitation as `GET /api/pending` lists it. */
export type PendingElicitation = PendingElicitationView;

const INPUT_TYPE: Partial<Record<ElicitField["kind"], string>> = {
  email: "email",
  url: "url",
  date: "date",
  datetime: "datetime-local",
  number: "number",
  integer: "number",
};

/** One elicitation: a form with defaults pre-filled, or for URL mode the target host and an explicit consent. */
export function ElicitationDialog({ request, onDone }: { request: PendingElicitation; onDone: () => void }) {
  return (
    <div data-testid="elicitation-dialog">
      <DialogTitle className="mb-1 pr-6 text-lg">{request.serverName} asks</DialogTitle>
      <DialogDescription className="mb-4 whitespace-pre-wrap">{request.message}</DialogDescription>
      {request.secretFields?.length ? (
        <p
          data-testid="elicitation-secret-warning"
          className="mb-4 rounded border border-amber-400 bg-amber-50 p-2 text-sm dark:bg-amber-950"
        >
          The server “{request.serverName}” asks for what looks like a secret ({request.secretFields.join(", ")}). Only answer if you trust
          this server with it.
        </p>
      ) : null}
      {request.mode === "url" ? <UrlConsent request={request} onDone={onDone} /> : <ElicitForm request={request} onDone={onDone} />}
    </div>
  );
}

/** Send the answer; true when the dialog closes (sent, or the question no longer waits: refused-answer.ts). */
async function answer(id: string, body: Record<string, unknown>): Promise<boolean> {
  try {
    await answerElicitation(id, body);
    return true;
  } catch (error) {
    return refusedAnswer(error);
  }
}

function UrlConsent({ request, onDone }: { request: PendingElicitation; onDone: () => void }) {
  return (
    <div className="space-y-3 text-sm">
      <p>
        This opens a page on <strong data-testid="elicitation-host">{request.host}</strong>:
      </p>
      <code className="block break-all rounded bg-muted p-2 text-xs">{request.url}</code>
      <div className="flex gap-2">
        <Button
          onClick={async () => {
            // The URL was checked to be http(s) on the server; open it without giving it this window.
            window.open(request.url, "_blank", "noopener,noreferrer");
            if (await answer(request.id, { action: "accept" })) onDone();
          }}
        >
          Open {request.host}
        </Button>
        <Button
          variant="secondary"
          onClick={async () => {
            if (await answer(request.id, { action: "decline" })) onDone();
          }}
        >
          Decline
        </Button>
      </div>
    </div>
  );
}

function ElicitForm({ request, onDone }: { request: PendingElicitation; onDone: () => void }) {
  const fields = fieldsOf(request.requestedSchema);
  const [values, setValues] = useState<Record<string, string | boolean | string[]>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.initial])),
  );
  const set = (name: string, value: string | boolean | string[]) => setValues((v) => ({ ...v, [name]: value }));

  return (
    <form
      className="space-y-3"
      onSubmit={async (event) => {
        event.preventDefault();
        if (await answer(request.id, { action: "accept", content: contentOf(fields, values) })) onDone();
      }}
    >
      <div className="max-h-[55vh] space-y-3 overflow-y-auto pr-1">
        {fields.map((field) => (
          <div key={field.name}>
            {field.kind === "boolean" ? (
              <ChoiceLabel className="gap-2 text-sm">
                <Checkbox name={field.name} checked={values[field.name] === true} onChange={(e) => set(field.name, e.target.checked)} />
                {field.label}
                {field.required && " *"}
              </ChoiceLabel>
            ) : (
              <>
                <Label htmlFor={`el-${field.name}`}>
                  {field.label}
                  {field.required && " *"}
                </Label>
                {field.kind === "select" ? (
                  <NativeSelect
                    id={`el-${field.name}`}
                    name={field.name}
                    required={field.required}
                    value={values[field.name] as string}
                    onChange={(e) => set(field.name, e.target.value)}
                  >
                    <option value="">—</option>
                    {field.options!.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </NativeSelect>
                ) : field.kind === "multi" ? (
                  <div className="flex flex-wrap gap-3 text-sm">
                    {field.options!.map((o) => (
                      <ChoiceLabel key={o.value} className="gap-1">
                        <Checkbox
                          checked={(values[field.name] as string[]).includes(o.value)}
                          onChange={(e) => {
                            const list = values[field.name] as string[];
                            set(field.name, e.target.checked ? [...list, o.value] : list.filter((v) => v !== o.value));
                          }}
                        />
                        {o.label}
                      </ChoiceLabel>
                    ))}
                  </div>
                ) : (
                  <Input
                    id={`el-${field.name}`}
                    name={field.name}
                    type={INPUT_TYPE[field.kind] ?? "text"}
                    step={field.kind === "integer" ? 1 : "any"}
                    required={field.required}
                    value={values[field.name] as string}
                    onChange={(e) => set(field.name, e.target.value)}
                  />
                )}
              </>
            )}
            {field.description && <p className="mt-0.5 text-xs text-muted-foreground">{field.description}</p>}
          </div>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit">Submit</Button>
        <Button
          variant="secondary"
          onClick={async () => {
            if (await answer(request.id, { action: "decline" })) onDone();
          }}
        >
          Decline
        </Button>
        <Button
          variant="secondary"
          onClick={async () => {
            if (await answer(request.id, { action: "cancel" })) onDone();
          }}
        >
          Cancel
        </Button>
      </div>
    </form>
  );
}
