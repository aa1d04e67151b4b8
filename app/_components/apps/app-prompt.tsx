"use client";
/** The host's own question about an app's request, shown above the frame (the app cannot draw over it). */

import { Button } from "../ui/primitives/button";

/** One pending question; `answer` resolves the app's request. */
export interface AppQuestion {
  kind: "tool" | "link" | "message";
  title: string;
  detail: string;
  reason?: string;
  answer: (ok: boolean) => void;
}

const ALLOW: Record<AppQuestion["kind"], string> = { tool: "Allow", link: "Open link", message: "Send" };

/** The question with Allow / Deny. */
export function AppPrompt({ question, onAnswer }: { question: AppQuestion; onAnswer: (ok: boolean) => void }) {
  return (
    <div
      role="alertdialog"
      aria-label={question.title}
      data-testid="app-approval"
      data-kind={question.kind}
      className="rounded border border-amber-400 bg-amber-50 p-2 text-sm dark:border-amber-700 dark:bg-amber-950"
    >
      <p className="font-medium">{question.title}</p>
      {question.reason && <p className="text-xs text-zinc-600 dark:text-zinc-300">{question.reason}</p>}
      <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all font-mono text-xs">{question.detail}</pre>
      <div className="mt-2 flex gap-2">
        <Button type="button" size="sm" data-testid="app-approve" onClick={() => onAnswer(true)}>
          {ALLOW[question.kind]}
        </Button>
        <Button type="button" variant="secondary" size="sm" data-testid="app-deny" onClick={() => onAnswer(false)}>
          Deny
        </Button>
      </div>
    </div>
  );
}
