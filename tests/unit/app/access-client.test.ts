/**
 * The browser's side of lost access: an API answer with an access code reaches the page's notice
 * (a window event), other codes do not; drafts are kept per workspace and chat and only a sent
 * text that is still the draft is cleared; `/name` picks a prompt only on an exact, single match.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Prompt } from "@modelcontextprotocol/client";
import {
  type AccessLoss,
  accessCodeOf,
  onAccessLoss,
  reportAccessLoss,
  reportAccessLossInBody,
} from "@/app/_components/access/access-events";
import { clearSentDraft, draftKey, hasDraft, readDraft, writeDraft } from "@/app/_components/access/drafts";
import { exactPrompt, type PromptChoice } from "@/app/_components/chat/prompt-menu";

// A window with localStorage and events, enough for these browser-only modules under Node.
class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, v);
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
}

beforeEach(() => {
  const target = new EventTarget();
  vi.stubGlobal("window", Object.assign(target, { localStorage: new MemoryStorage() }));
});
afterEach(() => vi.unstubAllGlobals());

describe("access events", () => {
  it("an access code reaches the listeners with its message; other codes and bodies do not", () => {
    const seen: AccessLoss[] = [];
    const stop = onAccessLoss((loss) => seen.push(loss));
    reportAccessLoss("workspace.removed", "You were removed from Acme by Ada on 27 Nov 2026, 01:50 UTC.");
    reportAccessLoss("workspace.not_found", "No such workspace.");
    reportAccessLoss(null, "whatever");
    reportAccessLossInBody(JSON.stringify({ code: "auth.account_disabled", message: "Your account is disabled" }));
    reportAccessLossInBody("not json");
    stop();
    reportAccessLoss("workspace.role_changed", "after stop");
    expect(seen).toEqual([
      { code: "workspace.removed", message: "You were removed from Acme by Ada on 27 Nov 2026, 01:50 UTC." },
      { code: "auth.account_disabled", message: "Your account is disabled" },
    ]);
  });
});

describe("accessCodeOf", () => {
  it("reads an access code from an error body, nothing else", () => {
    expect(accessCodeOf(JSON.stringify({ code: "workspace.role_changed", message: "x" }))).toBe("workspace.role_changed");
    expect(accessCodeOf(JSON.stringify({ code: "chat.no_model", message: "x" }))).toBeNull();
    expect(accessCodeOf("Bad Gateway")).toBeNull();
  });
});

describe("drafts", () => {
  it("are kept per workspace and chat, and a sent text is cleared only while it is still the draft", () => {
    const team = draftKey("acme", "chat-1");
    const landing = draftKey("acme", null);
    expect(team).not.toBe(draftKey("personal", "chat-1"));
    expect(hasDraft()).toBe(false);
    writeDraft(team, "half a question");
    writeDraft(landing, "something else");
    expect(readDraft(team)).toBe("half a question");
    expect(hasDraft()).toBe(true);
    clearSentDraft(team, "an older text");
    expect(readDraft(team)).toBe("half a question");
    clearSentDraft(team, "half a question");
    expect(readDraft(team)).toBe("");
    writeDraft(landing, "");
    expect(hasDraft()).toBe(false);
  });
});

describe("exactPrompt", () => {
  const choice = (serverName: string, name: string): PromptChoice => ({ serverId: serverName, serverName, prompt: { name } as Prompt });
  const choices = [choice("everything", "args-prompt"), choice("everything", "simple-prompt"), choice("other", "simple-prompt")];

  it("picks the one prompt named exactly, by name or `server: name`, ignoring case", () => {
    expect(exactPrompt(choices, "Args-Prompt")?.prompt.name).toBe("args-prompt");
    expect(exactPrompt(choices, "other: simple-prompt")?.serverName).toBe("other");
  });

  it("picks nothing for a prefix, an ambiguous name or a list not loaded yet", () => {
    expect(exactPrompt(choices, "args")).toBeUndefined();
    expect(exactPrompt(choices, "simple-prompt")).toBeUndefined();
    expect(exactPrompt(null, "args-prompt")).toBeUndefined();
  });
});
