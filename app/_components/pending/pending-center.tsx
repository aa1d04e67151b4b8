"use client";

import { useEffect, useState } from "react";
import { listPending, type PendingView } from "../api-client";
import { ElicitationDialog } from "./elicitation-dialog";
import { SamplingReviewDialog } from "./sampling-review-dialog";

const POLL_MS = 1500;

/**
 * Shows what servers are waiting on the signed-in user for — elicitations and sampling reviews —
 * one at a time, wherever the user is in the app.
 */
export function PendingCenter() {
  const [pending, setPending] = useState<PendingView>({
    elicitations: [],
    sampling: [],
  });
  const [answered, setAnswered] = useState<Set<string>>(new Set());

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (document.visibilityState === "visible") {
        // A failed poll (offline, signed out) leaves the dialogs as they are; the next one tries again.
        const next = await listPending().catch(() => null);
        if (next && !stopped) setPending(next);
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  const elicitation = pending.elicitations.find((e) => !answered.has(e.id));
  const review = elicitation ? undefined : pending.sampling.find((s) => !answered.has(s.id));
  const current = elicitation ?? review;
  if (!current) return null;
  // Hide an answered request at once; the next poll drops it from the list.
  const done = () => setAnswered((set) => new Set(set).add(current.id));
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby="pending-title"
    >
      <div className="w-full max-w-lg rounded-xl bg-white p-5 shadow-xl dark:bg-zinc-900">
        {elicitation ? (
          <ElicitationDialog key={elicitation.id} request={elicitation} onDone={done} />
        ) : (
          <SamplingReviewDialog key={review!.id} request={review!} onDone={done} />
        )}
      </div>
    </div>
  );
}
