"use client";

import { useEffect, useState } from "react";
import { answerElicitation, answerSamplingReview, ApiError, listPending, type PendingView } from "../api-client";
import { Dialog, DialogContent } from "../ui/primitives/dialog";
import { toast } from "../ui/primitives/toast";
import { ElicitationDialog } from "./elicitation-dialog";
import { SamplingReviewDialog } from "./sampling-review-dialog";

const POLL_MS = 1500;

/** After a dialog closes, focus goes back to the message field when the page has one (else Radix restores it). */
function focusComposer(event: Event) {
  const composer = document.getElementById("chat-input");
  if (composer) {
    event.preventDefault();
    composer.focus();
  }
}

/**
 * Shows what servers are waiting on the signed-in user for — elicitations and sampling reviews —
 * one at a time, wherever the user is in the app, as a modal dialog: focus is trapped inside,
 * Escape (or ×) answers Cancel (a sampling review: Deny), and focus returns to the composer.
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
  // Hide an answered request at once; the next poll drops it from the list.
  const done = () => current && setAnswered((set) => new Set(set).add(current.id));
  const dismiss = () => {
    if (!current) return;
    done();
    const answer = elicitation ? answerElicitation(current.id, { action: "cancel" }) : answerSamplingReview(current.id, { action: "deny" });
    answer.then(
      () => toast(elicitation ? "Cancelled" : "Denied"),
      // Refused only when the request is gone (expired, answered elsewhere): nothing left to cancel.
      (error: unknown) => {
        if (!(error instanceof ApiError)) toast.error("Could not send the answer.");
      },
    );
  };
  return (
    <Dialog open={!!current} onOpenChange={(open) => !open && dismiss()}>
      {current && (
        <DialogContent onCloseAutoFocus={focusComposer}>
          {elicitation ? (
            <ElicitationDialog key={elicitation.id} request={elicitation} onDone={done} />
          ) : (
            <SamplingReviewDialog key={review!.id} request={review!} onDone={done} />
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}
