"use client";
/**
 * The message box: text, attached resource chips, the resource picker, `/` prompts, Send and Stop.
 */
import { useState } from "react";
import type { UserTurn } from "@/lib/agent/chat-request";
import { PromptForm, PromptMenu, loadPromptChoices, type PromptChoice } from "./prompt-menu";
import { ResourcePicker, type Attachment } from "./resource-picker";

/** What the composer hands to the chat. */
export interface ComposerProps {
  busy: boolean;
  disabled?: boolean;
  onSend: (turn: UserTurn, display: { attachments: Attachment[]; prompt?: PromptChoice }) => void;
  onStop: () => void;
}

/** The composer. */
export function Composer({ busy, disabled, onSend, onStop }: ComposerProps) {
  const [text, setText] = useState("");
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [picking, setPicking] = useState(false);
  const [prompts, setPrompts] = useState<{ choices: PromptChoice[] | null; errors: string[] }>({ choices: null, errors: [] });
  const [promptChoice, setPromptChoice] = useState<PromptChoice | null>(null);
  const slash = text.startsWith("/") && !text.includes("\n") ? text.slice(1) : null;

  const changeText = (value: string) => {
    setText(value);
    if (value.startsWith("/") && prompts.choices === null) {
      setPrompts({ choices: [], errors: [] });
      loadPromptChoices().then(
        (r) => setPrompts(r),
        (e: Error) => setPrompts({ choices: [], errors: [e.message] }),
      );
    }
  };

  const send = () => {
    if (busy || disabled || (!text.trim() && attachments.length === 0)) return;
    onSend({ text, resources: attachments.map(({ serverId, uri, name }) => ({ serverId, uri, name })) }, { attachments });
    setText("");
    setAttachments([]);
  };

  const runPrompt = (choice: PromptChoice, args: Record<string, string>) => {
    onSend(
      { text: "", resources: [], prompt: { serverId: choice.serverId, name: choice.prompt.name, arguments: args } },
      { attachments: [], prompt: choice },
    );
    setPromptChoice(null);
    setText("");
  };

  return (
    <div className="space-y-2 border-t border-zinc-200 p-3 dark:border-zinc-800">
      {slash !== null && !promptChoice && (
        <PromptMenu
          query={slash}
          choices={prompts.choices}
          errors={prompts.errors}
          onPick={(c) => (c.prompt.arguments?.length ? setPromptChoice(c) : runPrompt(c, {}))}
        />
      )}
      {promptChoice && (
        <PromptForm choice={promptChoice} onRun={(args) => runPrompt(promptChoice, args)} onCancel={() => setPromptChoice(null)} />
      )}
      {picking && (
        <ResourcePicker
          onAttach={(a) => setAttachments((old) => (old.some((o) => o.uri === a.uri && o.serverId === a.serverId) ? old : [...old, a]))}
          onClose={() => setPicking(false)}
        />
      )}
      {attachments.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {attachments.map((a) => (
            <span
              key={`${a.serverId}:${a.uri}`}
              data-testid="pending-attachment"
              className="rounded-full bg-blue-100 px-2 py-0.5 text-xs text-blue-900 dark:bg-blue-900 dark:text-blue-100"
            >
              {a.serverName}: {a.name || a.uri}
              <button
                type="button"
                aria-label={`Remove ${a.uri}`}
                onClick={() => setAttachments((old) => old.filter((o) => o !== a))}
                className="ml-1"
              >
                ×
              </button>
            </span>
          ))}
        </div>
      )}
      <form
        className="flex items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <button
          type="button"
          data-testid="open-resource-picker"
          onClick={() => setPicking((p) => !p)}
          className="rounded border border-zinc-300 px-2 py-2 text-xs dark:border-zinc-700"
          title="Attach resources"
        >
          Attach
        </button>
        <textarea
          data-testid="chat-input"
          aria-label="Message"
          value={text}
          disabled={disabled}
          placeholder={disabled ? "Configure a model first" : "Ask the agent… (type / for prompts)"}
          onChange={(e) => changeText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && slash === null) {
              e.preventDefault();
              send();
            }
          }}
          rows={2}
          className="flex-1 resize-y rounded border border-zinc-300 p-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
        />
        {busy ? (
          <button
            type="button"
            data-testid="chat-stop"
            onClick={onStop}
            className="rounded bg-red-700 px-3 py-2 text-sm font-medium text-white"
          >
            Stop
          </button>
        ) : (
          <button
            type="submit"
            data-testid="chat-send"
            disabled={disabled}
            className="rounded bg-blue-700 px-3 py-2 text-sm font-medium text-white disabled:opacity-50"
          >
            Send
          </button>
        )}
      </form>
    </div>
  );
}
