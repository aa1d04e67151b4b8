"use client";
/**
 * Slash commands: typing `/` lists every server's prompts as `server: prompt` (a combobox popup of
 * the message field); picking one opens a form for its arguments with `completion/complete`
 * suggestions, then a preview of the rendered messages that the user can edit before sending.
 */
import { CompletionChips } from "../ui/completion-chips";
import type { Prompt } from "@modelcontextprotocol/client";
import { useEffect, useId, useRef, useState } from "react";
import { completePromptArgument, getPrompt, listPrompts, listServers, type WorkspaceSlug } from "../api-client";
import { Button } from "../ui/primitives/button";
import { cn } from "../ui/primitives/cn";
import { Input } from "../ui/primitives/input";
import { Textarea } from "../ui/primitives/textarea";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { promptContentText } from "@/lib/domain/prompt-text";
import type { useListbox } from "./use-listbox";

/** A prompt of one server. */
export interface PromptChoice {
  serverId: string;
  serverName: string;
  prompt: Prompt;
}

/** One rendered prompt message as the preview edits it. */
export interface PromptMessage {
  role: "user" | "assistant";
  text: string;
}

/** Load the prompts of every enabled server of workspace `ws` (servers that fail are skipped, their error kept). */
export async function loadPromptChoices(ws: WorkspaceSlug): Promise<{ choices: PromptChoice[]; errors: string[] }> {
  const servers = (await listServers(ws)).filter((s) => s.config.enabled !== false);
  const results = await Promise.allSettled(servers.map((s) => listPrompts(ws, s.id)));
  const choices: PromptChoice[] = [];
  const errors: string[] = [];
  results.forEach((r, i) => {
    if (r.status === "fulfilled") {
      for (const prompt of r.value) choices.push({ serverId: servers[i].id, serverName: servers[i].name, prompt });
    } else errors.push(`${servers[i].name}: ${(r.reason as Error).message}`);
  });
  return { choices, errors };
}

/** The prompts matching what follows the `/`. */
export function matchPrompts(choices: PromptChoice[] | null, query: string): PromptChoice[] {
  const q = query.toLowerCase();
  return (choices ?? []).filter((c) => `${c.serverName}: ${c.prompt.name} ${c.prompt.title ?? ""}`.toLowerCase().includes(q));
}

/** The prompt `query` names exactly (`name`, or `server: name`), ignoring case; undefined when none or several do. */
export function exactPrompt(choices: PromptChoice[] | null, query: string): PromptChoice | undefined {
  const q = query.trim().toLowerCase();
  const exact = (choices ?? []).filter((c) => c.prompt.name.toLowerCase() === q || `${c.serverName}: ${c.prompt.name}`.toLowerCase() === q);
  return exact.length === 1 ? exact[0] : undefined;
}

/** The popup under the composer while the text starts with `/`. */
export function PromptMenu({
  shown,
  loading,
  errors,
  listbox,
}: {
  shown: PromptChoice[];
  loading: boolean;
  errors: string[];
  listbox: ReturnType<typeof useListbox>;
}) {
  return (
    <div data-testid="prompt-menu" className="max-h-64 overflow-y-auto rounded-md border border-border bg-surface p-1 text-sm shadow">
      {loading && <p className="p-1 text-xs text-muted-foreground">Loading prompts…</p>}
      {!loading && shown.length === 0 && <p className="p-1 text-xs text-muted-foreground">No matching prompts.</p>}
      <ul {...listbox.listboxProps} aria-label="Prompts">
        {shown.map((c, i) => (
          <li
            key={`${c.serverId}:${c.prompt.name}`}
            data-testid="prompt-option"
            {...listbox.optionProps(i)}
            className={cn("cursor-pointer rounded px-2 py-1", i === listbox.active && "bg-primary/10 text-foreground")}
          >
            {c.serverName}: {c.prompt.name}
            {c.prompt.description && <span className="ml-2 text-xs text-muted-foreground">{c.prompt.description}</span>}
          </li>
        ))}
      </ul>
      {errors.map((e) => (
        <p key={e} role="alert" className="p-1 text-xs text-destructive">
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
  const ws = useWorkspaceSlug();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const value = values[name] ?? "";
  const inputId = useId();
  const suggest = (next: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // Suggestions are optional help: a server without completions simply offers none.
      completePromptArgument(ws, choice.serverId, choice.prompt.name, name, next, values).then(setSuggestions, () => setSuggestions([]));
    }, 200);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <div>
      <label htmlFor={inputId} className="block text-xs">
        {name}
        {required && " *"} {description && <span className="text-muted-foreground">— {description}</span>}
      </label>
      <Input
        id={inputId}
        aria-label={name}
        value={value}
        required={required}
        onFocus={() => suggest(value)}
        onChange={(e) => {
          onChange(e.target.value);
          suggest(e.target.value);
        }}
        className="mt-0.5 h-8"
      />
      <CompletionChips
        options={suggestions}
        max={10}
        testId={() => "completion-option"}
        onPick={(value) => {
          onChange(value);
          setSuggestions([]);
        }}
      />
    </div>
  );
}

/**
 * A picked prompt: its arguments (when it has any), then the rendered messages to review and edit;
 * `onRun` gets the arguments and the messages as they are to be sent.
 */
export function PromptForm({
  choice,
  onRun,
  onCancel,
}: {
  choice: PromptChoice;
  onRun: (args: Record<string, string>, messages: PromptMessage[] | undefined) => void;
  onCancel: () => void;
}) {
  const ws = useWorkspaceSlug();
  const [values, setValues] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<PromptMessage[] | null>(null);
  const [rendered, setRendered] = useState<string>("");
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const args = choice.prompt.arguments ?? [];
  const filled = () => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
  const load = () => {
    setLoading(true);
    setProblem(null);
    getPrompt(ws, choice.serverId, choice.prompt.name, filled()).then(
      (result) => {
        const messages = result.messages.map((m) => ({ role: m.role, text: promptContentText(m.content) }));
        setPreview(messages);
        setRendered(JSON.stringify(messages));
        setLoading(false);
      },
      (e: Error) => {
        setProblem(e.message);
        setLoading(false);
      },
    );
  };
  // A prompt without arguments goes straight to its preview.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per picked prompt
  useEffect(() => {
    if (args.length === 0) load();
  }, [choice]);
  const first = useRef<HTMLDivElement>(null);
  // Each step (arguments, then preview) starts with focus in its first field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the step changes
  useEffect(() => {
    first.current?.querySelector<HTMLElement>("input, textarea")?.focus();
  }, [preview]);
  return (
    <form
      data-testid="prompt-form"
      aria-label={`Prompt ${choice.prompt.title ?? choice.prompt.name}`}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          onCancel();
        }
      }}
      onSubmit={(e) => {
        e.preventDefault();
        if (!preview) load();
        // Unchanged messages are not sent back: the server renders them itself.
        else onRun(filled(), JSON.stringify(preview) === rendered ? undefined : preview);
      }}
      className="space-y-2 rounded-md border border-border bg-surface p-3 text-sm shadow"
    >
      <div className="font-medium">
        /{choice.serverName}: {choice.prompt.title ?? choice.prompt.name}
      </div>
      {choice.prompt.description && <p className="text-xs text-muted-foreground">{choice.prompt.description}</p>}
      <div ref={first} className="space-y-2">
        {!preview &&
          args.map((a) => (
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
        {preview && (
          <div data-testid="prompt-preview" className="space-y-2">
            <p className="text-xs text-muted-foreground">Review what will be sent; you can edit it.</p>
            {preview.map((m, i) => (
              <div key={i} className="block text-xs">
                <span className="text-muted-foreground">{m.role}</span>
                <Textarea
                  data-testid="prompt-preview-message"
                  aria-label={`Message ${i + 1} (${m.role})`}
                  value={m.text}
                  rows={Math.min(8, Math.max(2, m.text.split("\n").length))}
                  onChange={(e) => setPreview(preview.map((p, j) => (j === i ? { ...p, text: e.target.value } : p)))}
                />
              </div>
            ))}
          </div>
        )}
      </div>
      {loading && <p className="text-xs text-muted-foreground">Rendering the prompt…</p>}
      {problem && (
        <p role="alert" className="text-xs text-destructive">
          {problem}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" size="sm" data-testid="prompt-run-button" disabled={loading}>
          {preview ? "Send prompt" : "Preview"}
        </Button>
        {preview && args.length > 0 && (
          <Button variant="secondary" size="sm" onClick={() => setPreview(null)}>
            Back
          </Button>
        )}
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
