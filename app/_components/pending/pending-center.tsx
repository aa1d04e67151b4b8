"use client";

import { useEffect, useRef, useState } from "react";
import { answerElicitation, answerSamplingReview, listPending, type PendingView } from "../api-client";
import { Dialog, DialogContent } from "../ui/primitives/dialog";
import { toast } from "../ui/primitives/toast";
import { ElicitationDialog } from "./elicitation-dialog";
import { refusedAnswer } from "./refused-answer";
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
 * Escape (or ×) answers Cancel (a sampling review: Deny), and focus returns to the composer. A
 * question this tab listed that was withdrawn because the connection that asked is gone (its
 * replica stopped) is reported once, with the reason, instead of vanishing.
 */
export function PendingCenter() {
  const [pending, setPending] = useState<PendingView>({
    elicitations: [],
    sampling: [],
    withdrawn: [],
  });
  const [answered, setAnswered] = useState<Set<string>>(new Set());
  // Ids this tab listed as waiting, and the withdrawals it reported (each once).
  const listed = useRef(new Set<string>());
  const reported = useRef(new Set<string>());

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      if (document.visibilityState === "visible") {
        // A failed poll (offline, signed out) leaves the dialogs as they are; the next one tries again.
        const next = await listPending().catch(() => null);
        if (next && !stopped) {
          for (const gone of next.withdrawn ?? []) {
            if (!listed.current.has(gone.id) || reported.current.has(gone.id)) continue;
            reported.current.add(gone.id);
            toast.error(`${gone.serverName}: ${gone.message}`);
          }
          for (const request of [...next.elicitations, ...next.sampling]) listed.current.add(request.id);
          setPending(next);
        }
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
    const id = current.id;
    answer.then(
      () => toast(elicitation ? "Cancelled" : "Denied"),
      (error: unknown) => {
        let gone = true;
        try {
          // Gone already (expired, answered elsewhere, withdrawn): nothing left to cancel; the reason is shown.
          gone = refusedAnswer(error);
        } catch {
          toast.error("Could not send the answer.");
        }
        // Not delivered now (503): show the question again for another try.
        if (!gone)
          setAnswered((set) => {
            const next = new Set(set);
            next.delete(id);
            return next;
          });
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
