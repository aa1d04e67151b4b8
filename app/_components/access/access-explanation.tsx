import Link from "next/link";
import type { AccessCode } from "./access-events";

const TITLES: Record<AccessCode, string> = {
  "workspace.removed": "You no longer have access to this workspace",
  "workspace.role_changed": "Your role in this workspace changed",
  "workspace.deleted": "This workspace was deleted",
  "auth.account_disabled": "Your account is disabled",
};

/**
 * What happened and what the person can do, for one access code: the server's sentence (who and
 * when) and the way forward (their own workspace, or sign-in). Used under `accessTitle(code)` by the
 * `/access/<slug>` page and by the notice that opens over any page.
 */
export function AccessExplanation({ code, message, draftKept }: { code: AccessCode; message: string; draftKept?: boolean }) {
  return (
    <div className="flex flex-col gap-3" data-testid="access-explanation" data-code={code}>
      <p className="text-sm" data-testid="access-message">
        {message}
      </p>
      {draftKept && (
        <p className="text-sm text-muted-foreground" data-testid="access-draft-kept">
          What you were typing is kept as a draft in this browser.
        </p>
      )}
      <p className="text-sm">
        {(code === "workspace.removed" || code === "workspace.deleted") && (
          <Link className="text-primary underline" href="/w/personal/chat">
            Go to your personal workspace
          </Link>
        )}
        {code === "auth.account_disabled" && (
          <a className="text-primary underline" href="/signin?reason=disabled">
            Go to sign-in
          </a>
        )}
      </p>
    </div>
  );
}

/** The heading of an access code's explanation (the notice's accessible name). */
export function accessTitle(code: AccessCode): string {
  return TITLES[code];
}
