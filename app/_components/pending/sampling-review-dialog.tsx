"use client";

import { useState } from "react";
import type { SamplingReviewAnswer, SamplingReviewView } from "@/lib/runtime/sampling";
import { answerSamplingReview } from "../api-client";
import { Button } from "../ui/primitives/button";
import { DialogDescription, DialogTitle } from "../ui/primitives/dialog";
import { Label } from "../ui/primitives/label";
import { Textarea } from "../ui/primitives/textarea";
import { refusedAnswer } from "./refused-answer";

/** A pending sampling review as `GET /api/pending` lists it. */
export type PendingSamplingReview = SamplingReviewView;

/**
 * Human in the loop for sampling (docs/architecture.md#sampling-and-elicitation): first the server's request (the last message is
 * editable), then the model's answer (editable) before it goes back to the server.
 */
export function SamplingReviewDialog({ request, onDone }: { request: PendingSamplingReview; onDone: () => void }) {
  const editable = request.stage === "request" ? (request.messages.at(-1)?.text ?? "") : (request.answer ?? "");
  const [text, setText] = useState(editable);
  const shown = request.stage === "request" ? request.messages.slice(0, -1) : request.messages;

  async function decide(body: SamplingReviewAnswer) {
    try {
      await answerSamplingReview(request.id, body);
    } catch (error) {
      // The review no longer waits (the dialog closes), or the answer could not go now (it stays).
      if (!refusedAnswer(error)) return;
    }
    onDone();
  }

  return (
    <div className="space-y-3 text-sm" data-testid="sampling-dialog">
      <DialogTitle className="pr-6 text-lg">
        {request.stage === "request" ? `${request.serverName} wants to ask the model` : `Send this answer back to ${request.serverName}?`}
      </DialogTitle>
      <DialogDescription className="text-xs">
        Model {request.model} · at most {request.maxTokens} tokens
      </DialogDescription>
      {request.systemPrompt && (
        <p className="rounded bg-muted p-2 text-xs">
          <strong>System:</strong> {request.systemPrompt}
        </p>
      )}
      <div className="max-h-48 space-y-1 overflow-y-auto">
        {shown.map((m, i) => (
          <p key={i} data-testid="sampling-message" className="whitespace-pre-wrap break-words rounded border border-border p-2 text-xs">
            <strong>{m.role}:</strong> {m.text}
          </p>
        ))}
      </div>
      {request.tools && request.tools.length > 0 && (
        <div className="text-xs" data-testid="sampling-tools">
          <strong>Tools {request.serverName} offers the model</strong> (the server runs them, not Switchboard):
          <ul className="list-disc pl-5">
            {request.tools.map((t) => (
              <li key={t.name}>
                <code>{t.name}</code>
                {t.description ? ` — ${t.description}` : ""}
              </li>
            ))}
          </ul>
        </div>
      )}
      {request.toolCalls && request.toolCalls.length > 0 && (
        <div className="text-xs" data-testid="sampling-tool-calls">
          <strong>The model asks {request.serverName} to run:</strong>
          <ul className="list-disc pl-5">
            {request.toolCalls.map((c, i) => (
              <li key={i}>
                <code>
                  {c.name}({JSON.stringify(c.input)})
                </code>
              </li>
            ))}
          </ul>
        </div>
      )}
      <Label htmlFor="sampling-text">{request.stage === "request" ? "Message to the model" : "The model's answer"}</Label>
      <Textarea id="sampling-text" className="font-mono" rows={5} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void decide({ action: "approve", text })}>
          {request.stage === "request" ? "Ask the model" : "Send answer"}
        </Button>
        <Button variant="secondary" onClick={() => void decide({ action: "deny" })}>
          Deny
        </Button>
      </div>
    </div>
  );
}
