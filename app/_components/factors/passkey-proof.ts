/**
 * A passkey's answer proving it is the signed-in user (removing a factor, re-authentication): a
 * challenge for the caller's own passkeys from the server, answered by the browser's authenticator.
 */
import { type AuthenticationResponseJSON, startAuthentication } from "@simplewebauthn/browser";
import { api } from "../api-client";

/** Ask the authenticator for an answer to a fresh re-authentication challenge (throws when cancelled). */
export async function passkeyProof(): Promise<AuthenticationResponseJSON> {
  const optionsJSON = await api<Parameters<typeof startAuthentication>[0]["optionsJSON"]>("/api/account/reauth/passkey", {
    method: "POST",
    json: {},
  });
  return startAuthentication({ optionsJSON });
}
