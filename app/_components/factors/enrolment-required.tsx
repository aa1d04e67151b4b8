"use client";

import { useRouter } from "next/navigation";
import { PasskeyEnrolment } from "./passkey-enrolment";
import { TotpEnrolment } from "./totp-enrolment";

/** The enrolment page's body: why it is asked, the enrolment, then on to the app. */
export function EnrolmentRequired({ email, required }: { email: string; required: boolean }) {
  const router = useRouter();
  return (
    <div className="space-y-4" data-testid="enrolment-required">
      <h2 className="text-lg font-medium">Add a second factor</h2>
      <p className="text-sm text-muted-foreground">
        {required
          ? "This instance requires a second factor for your account. Add an authenticator app or a passkey to go on."
          : "Your account has a second factor already."}{" "}
        Signed in as <span className="break-all">{email}</span>.
      </p>
      {required ? (
        <>
          <TotpEnrolment onDone={() => router.replace("/chat")} />
          <PasskeyEnrolment onDone={() => router.replace("/chat")} />
        </>
      ) : (
        <a className="text-primary underline" href="/chat">
          Go on
        </a>
      )}
    </div>
  );
}
