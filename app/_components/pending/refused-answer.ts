import { ApiError } from "../api-client";
import { toast } from "../ui/primitives/toast";

/**
 * What a dialog does when its answer was refused: true when the question no longer waits (expired:
 * silently; answered elsewhere or withdrawn — the connection that asked is gone — with the reason
 * shown), so the dialog closes; false when the answer could not be delivered now (503), so the
 * dialog stays for another try. Anything but an API refusal is rethrown.
 */
export function refusedAnswer(error: unknown): boolean {
  if (!(error instanceof ApiError)) throw error;
  if (error.status === 503) {
    toast.error(`Could not send the answer: ${error.message}`);
    return false;
  }
  if (error.status === 409) toast.error(error.message);
  return true;
}
