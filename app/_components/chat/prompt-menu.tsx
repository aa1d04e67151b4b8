"use client";
/**
 * Slash commands: typing `/` lists every server's prompts as `server: prompt`; picking one opens
 * a form for its arguments with `completion/complete` suggestions where the server offers them.
 */
import { useEffect, useRef, useState } from "react";
import type { Prompt } from "@modelcontextprotocol/client";
import { completePromptArgument, listPrompts, listServers } from "../api-client";

/** A prompt of one server. */
export interface PromptChoice {
  serverId: string;
  serverName: string;
  prompt: Prompt;
}

/** Load every enabled server's prompts (servers that fail are skipped, their error kept). */
export async function loadPromptChoices(): Promise<{ choices: PromptChoice[]; errors: string[] }> {
  const servers = (await listServers()).filter((s) => s.config.enabled !== false);
  const results = await Promise.allSettled(servers.map((s) => listPrompts(s.id)));
  const choices: PromptChoice[] = [];
  const errors: string[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") {
      for (const prompt of r.value) choices.push({ serverId: servers[i].id, serverName: servers[i].name, prompt });
    } else errors.push(`${servers[i].name}: ${(r.reason as Error).message}`);
  });
  return { choices, errors };
}

/** The list under the composer while the text starts with `/`. */
export function PromptMenu({
  query,
  choices,
  errors,
  onPick,
}: {
  query: string;
  choices: PromptChoice[] | null;
  errors: string[];
  onPick: (c: PromptChoice) => void;
}) {
  const q = query.toLowerCase();
  const shown = (choices ?? []).filter((c) => `${c.serverName}: ${c.prompt.name} ${c.prompt.title ?? ""}`.toLowerCase().includes(q));
  return (
    <div
      data-testid="prompt-menu"
      role="listbox"
      className="max-h-64 overflow-y-auto rounded border border-zinc-300 bg-white p-1 text-sm shadow dark:border-zinc-700 dark:bg-zinc-900"
    >
      {choices === null && <p className="p-1 text-xs text-zinc-500">Loading prompts…</p>}
      {choices && shown.length === 0 && <p className="p-1 text-xs text-zinc-500">No matching prompts.</p>}
      {shown.map((c) => (
        <button
          key={`${c.serverId}:${c.prompt.name}`}
          type="button"
          role="option"
          aria-selected={false}
          data-testid="prompt-option"
          onClick={() => onPick(c)}
          className="block w-full rounded px-2 py-1 text-left hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          {c.serverName}: {c.prompt.name}
          {c.prompt.description && <span className="ml-2 text-xs text-zinc-500">{c.prompt.description}</span>}
        </button>
      ))}
      {errors.map((e) => (
        <p key={e} className="p-1 text-xs text-red-700">
          {e}
        </p>
      ))}
    </div>
  );
}

function ArgumentField({
  choice,
  name,
  required,
  description,
  values,
  onChange,
}: {
  choice: PromptChoice;
  name: string;
  required: boolean;
  description?: string;
  values: Record<string, string>;
  onChange: (v: string) => void;
}) {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const value = values[name] ?? "";
  const suggest = (next: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      completePromptArgument(choice.serverId, choice.prompt.name, name, next, values).then(setSuggestions, () => setSuggestions([]));
    }, 200);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div>
      <label className="block text-xs">
        {name}
        {required && " *"} {description && <span className="text-zinc-500">— {description}</span>}
        <input
          aria-label={name}
          value={value}
          required={required}
          onFocus={() => suggest(value)}
          onChange={(e) => {
            onChange(e.target.value);
            suggest(e.target.value);
          }}
          className="mt-0.5 block w-full rounded border px-2 py-1 dark:bg-zinc-900"
        />
      </label>
      {suggestions.length > 0 && (
        <div className="mt-1 flex flex-wrap gap-1">
          {suggestions.slice(0, 10).map((s) => (
            <button
              key={s}
              type="button"
              data-testid="completion-option"
              onClick={() => {
                onChange(s);
                setSuggestions([]);
              }}
              className="rounded bg-zinc-100 px-2 text-xs dark:bg-zinc-800"
            >
              {s}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The arguments form of a picked prompt. */
export function PromptForm({
  choice,
  onRun,
  onCancel,
}: {
  choice: PromptChoice;
  onRun: (args: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const args = choice.prompt.arguments ?? [];
  return (
    <form
      data-testid="prompt-form"
      onSubmit={(e) => {
        e.preventDefault();
        onRun(Object.fromEntries(Object.entries(values).filter(([, v]) => v !== "")));
      }}
      className="space-y-2 rounded border border-zinc-300 bg-white p-3 text-sm shadow dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div className="font-medium">
        /{choice.serverName}: {choice.prompt.title ?? choice.prompt.name}
      </div>
      {choice.prompt.description && <p className="text-xs text-zinc-500">{choice.prompt.description}</p>}
      {args.length === 0 && <p className="text-xs text-zinc-500">This prompt takes no arguments.</p>}
      {args.map((a) => (
        <ArgumentField
          key={a.name}
          choice={choice}
          name={a.name}
          required={a.required === true}
          description={a.description}
          values={values}
          onChange={(v) => setValues((old) => ({ ...old, [a.name]: v }))}
        />
      ))}
      <div className="flex gap-2">
        <button type="submit" data-testid="prompt-run-button" className="rounded bg-blue-700 px-3 py-1 text-xs font-medium text-white">
          Run prompt
        </button>
        <button type="button" onClick={onCancel} className="rounded bg-zinc-200 px-3 py-1 text-xs dark:bg-zinc-700">
          Cancel
        </button>
      </div>
    </form>
  );
}
