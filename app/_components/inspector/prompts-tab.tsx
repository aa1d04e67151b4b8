"use client";
/** Prompts by hand: fill the arguments (with the server's completions) and preview the messages. */
import type { GetPromptResult, Prompt } from "@modelcontextprotocol/client";
import { useCallback, useEffect, useState } from "react";
import { ApiError, listPrompts } from "../api-client";
import { Button } from "../ui/primitives/button";
import { CompletionInput } from "./completion-input";
import { complete, getPrompt } from "./inspector-api";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** The Prompts tab. */
export function PromptsTab({ serverId, connected }: { serverId: string; connected: boolean }) {
  const ws = useWorkspaceSlug();
  const [prompts, setPrompts] = useState<Prompt[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [selected, setSelected] = useState<Prompt | null>(null);
  useEffect(() => {
    if (!connected) return;
    listPrompts(ws, serverId).then(setPrompts, (e: Error) => setProblem(e.message));
  }, [ws, serverId, connected]);
  if (!connected && !prompts) return <p className="text-sm text-zinc-500">Start the server (above) to list its prompts.</p>;
  return (
    <div className="grid gap-4 md:grid-cols-[16rem_1fr]">
      <ul className="space-y-1 text-sm" data-testid="inspector-prompts">
        {problem && <li className="field-error">{problem}</li>}
        {prompts?.map((p) => (
          <li key={p.name}>
            <Button
              type="button"
              variant="ghost"
              className="block h-auto w-full px-2 py-1 text-left font-normal whitespace-normal"
              onClick={() => setSelected(p)}
              data-testid={`prompt-${p.name}`}
            >
              {p.title ?? p.name}
            </Button>
          </li>
        ))}
      </ul>
      {selected ? (
        <PromptRunner key={selected.name} serverId={serverId} prompt={selected} />
      ) : (
        <p className="text-sm text-zinc-500">Pick a prompt.</p>
      )}
    </div>
  );
}

function PromptRunner({ serverId, prompt }: { serverId: string; prompt: Prompt }) {
  const ws = useWorkspaceSlug();
  const [values, setValues] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<GetPromptResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const suggest = useCallback(
    (name: string) => (value: string) => complete(ws, serverId, { type: "ref/prompt", name: prompt.name }, name, value, values),
    [ws, serverId, prompt.name, values],
  );
  async function run() {
    try {
      const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
      setPreview(await getPrompt(ws, serverId, prompt.name, filled));
      setProblem(null);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setProblem(error.message);
    }
  }
  return (
    <form
      className="space-y-2"
      data-testid="prompt-runner"
      onSubmit={(e) => {
        e.preventDefault();
        void run();
      }}
    >
      {prompt.description && <p className="text-sm text-zinc-600">{prompt.description}</p>}
      {(prompt.arguments ?? []).map((arg) => (
        <CompletionInput
          key={arg.name}
          name={arg.name}
          value={values[arg.name] ?? ""}
          onChange={(value) => setValues((v) => ({ ...v, [arg.name]: value }))}
          suggest={suggest(arg.name)}
          required={arg.required}
        />
      ))}
      <Button type="submit" data-testid="get-prompt">
        Preview
      </Button>
      {problem && <p className="field-error">{problem}</p>}
      {preview && (
        <ol className="space-y-2" data-testid="prompt-preview">
          {preview.messages.map((message, index) => (
            <li key={index} className="rounded bg-zinc-50 p-2 text-sm dark:bg-zinc-900">
              <span className="text-xs font-medium text-zinc-500">{message.role}</span>
              <pre className="whitespace-pre-wrap text-xs">
                {message.content.type === "text" ? message.content.text : JSON.stringify(message.content, null, 2)}
              </pre>
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}
