"use client";

import { useState } from "react";
import type { SamplingReviewAnswer, SamplingReviewView } from "@/lib/host/sampling";
import { ApiError, answerSamplingReview } from "../api-client";

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
      // Refused only when the review is gone (expired, answered elsewhere): the dialog closes either way.
      if (!(error instanceof ApiError)) throw error;
    }
    onDone();
  }

  return (
    <div className="space-y-3 text-sm" data-testid="sampling-dialog">
      <h2 id="pending-title" className="text-lg font-semibold">
        {request.stage === "request" ? `${request.serverName} wants to ask the model` : `Send this answer back to ${request.serverName}?`}
      </h2>
      <p className="text-xs text-zinc-500">
        Model {request.model} · at most {request.maxTokens} tokens
      </p>
      {request.systemPrompt && (
        <p className="rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
          <strong>System:</strong> {request.systemPrompt}
        </p>
      )}
      <div className="max-h-48 space-y-1 overflow-y-auto">
        {shown.map((m, i) => (
          <p key={i} className="whitespace-pre-wrap rounded border border-zinc-200 p-2 text-xs dark:border-zinc-700">
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
      <label className="label" htmlFor="sampling-text">
        {request.stage === "request" ? "Message to the model" : "The model's answer"}
      </label>
      <textarea id="sampling-text" className="input font-mono" rows={5} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="flex gap-2">
        <button type="button" className="btn-primary" onClick={() => decide({ action: "approve", text })}>
          {request.stage === "request" ? "Ask the model" : "Send answer"}
        </button>
        <button type="button" className="btn-secondary" onClick={() => decide({ action: "deny" })}>
          Deny
        </button>
      </div>
    </div>
  );
}
