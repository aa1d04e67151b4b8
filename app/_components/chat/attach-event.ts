/**
 * "Attach this resource to my next message" from anywhere in the chat (a resource link in a tool
 * result) to the composer, without threading callbacks through every card.
 */
import type { Attachment } from "./resource-picker";

const EVENT = "switchboard:attach";

/** Ask the composer to attach `attachment`. */
export function requestAttach(attachment: Attachment): void {
  window.dispatchEvent(new CustomEvent<Attachment>(EVENT, { detail: attachment }));
}

/** Listen for attach requests; returns the unsubscribe function. */
export function onAttachRequest(handler: (attachment: Attachment) => void): () => void {
  const listener = (e: Event) => handler((e as CustomEvent<Attachment>).detail);
  window.addEventListener(EVENT, listener);
  return () => window.removeEventListener(EVENT, listener);
}
