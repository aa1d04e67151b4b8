/**
 * The composer's drafts, kept in this browser's localStorage per workspace and chat, so a message
 * being typed survives a reload, a lost session or lost access. A draft is removed once its turn
 * was accepted by the server, never merely because Send was pressed.
 */

const PREFIX = "switchboard.draft:";

/** The storage key of the draft of chat `chatId` (or the landing page's new chat) in workspace `ws`. */
export function draftKey(ws: string, chatId: string | null): string {
  return `${PREFIX}${ws}:${chatId ?? "new"}`;
}

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    // Storage refused (privacy mode, sandboxed frame): drafts are simply not kept.
    return null;
  }
}

/** The draft stored under `key`, or "". */
export function readDraft(key: string): string {
  return storage()?.getItem(key) ?? "";
}

/** Store `text` as the draft under `key`; an empty text removes it. */
export function writeDraft(key: string, text: string): void {
  const store = storage();
  if (!store) return;
  try {
    if (text) store.setItem(key, text);
    else store.removeItem(key);
  } catch {
    // Quota exceeded: the draft is not kept, the text stays in the field.
  }
}

/** Remove the draft under `key` when it still holds `sent` (a newer draft typed meanwhile stays). */
export function clearSentDraft(key: string, sent: string): void {
  if (readDraft(key) === sent) writeDraft(key, "");
}

/** Whether any draft is kept in this browser. */
export function hasDraft(): boolean {
  const store = storage();
  if (!store) return false;
  for (let i = 0; i < store.length; i++) if (store.key(i)?.startsWith(PREFIX) && store.getItem(store.key(i) ?? "")) return true;
  return false;
}
