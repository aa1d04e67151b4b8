"use client";
/**
 * The message box: text, attached resource chips, the resource picker, `/` prompts (a combobox
 * popup of the field: arrows, Enter or Tab to pick, Escape to close — never sent as text while a
 * prompt is highlighted), edit-and-resend of the last question, Send and Stop. Send and Stop never
 * leave the screen: the field shrinks instead.
 */
import { PaperclipIcon, SendIcon, SquareIcon, XIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { UserTurn } from "@/lib/agent/chat-request";
import { Button } from "../ui/primitives/button";
import { Textarea } from "../ui/primitives/textarea";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { readDraft, writeDraft } from "../access/drafts";
import { onAttachRequest } from "./attach-event";
import { exactPrompt, loadPromptChoices, matchPrompts, PromptForm, PromptMenu, type PromptChoice } from "./prompt-menu";
import { ResourcePicker, type Attachment } from "./resource-picker";
import { useListbox } from "./use-listbox";

/** What the composer hands to the chat. */
export interface ComposerProps {
  busy: boolean;
  disabled?: boolean;
  onSend: (turn: UserTurn, display: { attachments: Attachment[]; prompt?: PromptChoice }) => void;
  onStop: () => void;
  /** Set while the last question is being edited: its text to start from, and how to give up. */
  editing?: { text: string; onCancel: () => void } | null;
  /** Where the text being typed is kept (app/_components/access/drafts.ts); default: not kept. */
  draftKey?: string;
  /** Bumped by the chat when a sent turn was refused: the field gets the kept draft back. */
  restoreDraft?: number;
  /** The approval id of a tool call waiting for the user: a "Review" button after Send reaches it by Tab. */
  pendingApproval?: string | null;
}

/** The id of the message field, so dialogs can hand focus back to it when they close. */
export const COMPOSER_INPUT_ID = "chat-input";

function addAttachment(old: Attachment[], a: Attachment): Attachment[] {
  return old.some((o) => o.uri === a.uri && o.serverId === a.serverId) ? old : [...old, a];
}

/** The composer. */
export function Composer({ busy, disabled, onSend, onStop, editing, draftKey, restoreDraft = 0, pendingApproval }: ComposerProps) {
  const ws = useWorkspaceSlug();
  const [text, setText] = useState("");
  // The kept draft comes back on mount and whenever a sent turn was refused (lost access, an error).
  // biome-ignore lint/correctness/useExhaustiveDependencies: restoreDraft is the signal to read the draft again
  useEffect(() => {
    if (draftKey) setText((now) => now || readDraft(draftKey));
  }, [draftKey, restoreDraft]);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [picking, setPicking] = useState(false);
  const [prompts, setPrompts] = useState<{ choices: PromptChoice[] | null; errors: string[] }>({ choices: null, errors: [] });
  const [promptChoice, setPromptChoice] = useState<PromptChoice | null>(null);
  const [menuDismissed, setMenuDismissed] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const slash = text.startsWith("/") && !text.includes("\n") ? text.slice(1) : null;
  const menuOpen = slash !== null && !promptChoice && !menuDismissed;
  const shown = menuOpen ? matchPrompts(prompts.choices, slash) : [];

  const attach = (a: Attachment) => setAttachments((old) => addAttachment(old, a));
  // Resource links in tool results ask for an attachment through a window event.
  useEffect(() => onAttachRequest((a) => setAttachments((old) => addAttachment(old, a))), []);
  // Editing the last question starts from its text, in the field.
  useEffect(() => {
    if (editing) {
      setText(editing.text);
      field.current?.focus();
    }
  }, [editing]);

  const pick = (choice: PromptChoice) => setPromptChoice(choice);
  // `/name` + Enter before the list has loaded waits for it, then picks the exact match (or leaves
  // the menu open): the slash text is never sent to the model by a quick Enter.
  const [enterWaiting, setEnterWaiting] = useState(false);
  const exactMatch = (query: string) => exactPrompt(prompts.choices, query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the list arrives
  useEffect(() => {
    if (!enterWaiting || prompts.choices === null) return;
    setEnterWaiting(false);
    const exact = slash !== null ? exactMatch(slash) : undefined;
    if (exact) pick(exact);
  }, [prompts.choices]);
  const listbox = useListbox({ open: menuOpen, count: shown.length, onPick: (i) => pick(shown[i]), onClose: () => setMenuDismissed(true) });

  const changeText = (value: string) => {
    setText(value);
    if (draftKey && !editing) writeDraft(draftKey, value);
    setMenuDismissed(false);
    if (value.startsWith("/") && prompts.choices === null) {
      setPrompts({ choices: null, errors: [] });
      loadPromptChoices(ws).then(
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

  const runPrompt = (choice: PromptChoice, args: Record<string, string>, messages?: { role: "user" | "assistant"; text: string }[]) => {
    onSend(
      {
        text: "",
        resources: [],
        prompt: { serverId: choice.serverId, name: choice.prompt.name, arguments: args, ...(messages ? { messages } : {}) },
      },
      { attachments: [], prompt: choice },
    );
    if (draftKey) writeDraft(draftKey, "");
    closePrompt();
  };
  const closePrompt = () => {
    setPromptChoice(null);
    setText("");
    field.current?.focus();
  };

  return (
    <div className="shrink-0 space-y-2 border-t border-border bg-background p-2 sm:p-3">
      {menuOpen && <PromptMenu shown={shown} loading={prompts.choices === null} errors={prompts.errors} listbox={listbox} />}
      {promptChoice && (
        <PromptForm choice={promptChoice} onRun={(args, messages) => runPrompt(promptChoice, args, messages)} onCancel={closePrompt} />
      )}
      {picking && (
        <ResourcePicker
          onAttach={attach}
          onClose={() => {
            setPicking(false);
            field.current?.focus();
          }}
        />
      )}
      {editing && (
        <div data-testid="editing-banner" className="flex items-center gap-2 text-xs text-muted-foreground">
          Editing your last message: sending replaces it and its answer.
          <Button
            variant="ghost"
            size="sm"
            className="h-6"
            onClick={() => {
              editing.onCancel();
              setText("");
            }}
          >
            Cancel edit
          </Button>
        </div>
      )}
      {attachments.length > 0 && (
        <div className="flex flex-wrap gap-1">
          {attachments.map((a) => (
            <span
              key={`${a.serverId}:${a.uri}`}
              data-testid="pending-attachment"
              className="inline-flex max-w-full items-center rounded-full bg-primary/10 px-2 py-0.5 text-xs text-primary"
            >
              <span className="truncate">
                {a.serverName}: {a.name || a.uri}
              </span>
              <button
                type="button"
                aria-label={`Remove ${a.uri}`}
                onClick={() => setAttachments((old) => old.filter((o) => o !== a))}
                className="ml-1 rounded"
              >
                <XIcon className="size-3" aria-hidden />
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
        <Button
          variant="secondary"
          size="icon"
          data-testid="open-resource-picker"
          aria-expanded={picking}
          onClick={() => setPicking((p) => !p)}
          aria-label="Attach resources"
          title="Attach resources"
        >
          <PaperclipIcon aria-hidden />
        </Button>
        <Textarea
          ref={field}
          id={COMPOSER_INPUT_ID}
          data-testid="chat-input"
          aria-label="Message"
          {...(slash !== null ? listbox.fieldProps : {})}
          value={text}
          disabled={disabled}
          placeholder={disabled ? "Configure a model first" : "Ask the agent… (type / for prompts)"}
          onChange={(e) => changeText(e.target.value)}
          onKeyDown={(e) => {
            if (menuOpen && e.key === "Enter" && !e.shiftKey) {
              const exact = prompts.choices !== null && slash !== null ? exactMatch(slash) : undefined;
              if (prompts.choices === null || exact) {
                e.preventDefault();
                if (exact) pick(exact);
                else setEnterWaiting(true);
                return;
              }
            }
            if (listbox.onKeyDown(e)) return;
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
          rows={2}
          className="max-h-48 min-h-10 flex-1 resize-none sm:resize-y"
        />
        {busy ? (
          <Button variant="destructive" data-testid="chat-stop" onClick={onStop}>
            <SquareIcon aria-hidden /> Stop
          </Button>
        ) : (
          <Button type="submit" data-testid="chat-send" disabled={disabled}>
            <SendIcon aria-hidden /> Send
          </Button>
        )}
      </form>
      {pendingApproval && (
        // The card sits above in the transcript: this keeps it one forward Tab away from the field.
        <p className="flex flex-wrap items-center gap-2 text-xs text-amber-900 dark:text-amber-200" data-testid="approval-waiting">
          A tool call is waiting for your approval.
          <Button
            variant="secondary"
            size="sm"
            className="h-7"
            data-testid="review-approval"
            onClick={() => {
              const card = document.querySelector<HTMLElement>(`[data-approval-id="${CSS.escape(pendingApproval)}"]`);
              card?.scrollIntoView({ block: "center" });
              card?.focus();
            }}
          >
            Review
          </Button>
        </p>
      )}
    </div>
  );
}
