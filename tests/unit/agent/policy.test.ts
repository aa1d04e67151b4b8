import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import {
  DENIED_BY_POLICY,
  DENIED_BY_WORKSPACE,
  approvalStatus,
  decideApproval,
  effectivePolicy,
  policyToolName,
  stricterPolicy,
  type ApprovalInput,
  type ContentSource,
  type ToolPolicy,
} from "@/lib/trust/policy";
import { chatErrorText } from "@/lib/agent/run-chat";

const SELF: ContentSource = { serverId: "s1", serverName: "files" };
const OTHER: ContentSource = { serverId: "s2", serverName: "web" };

const ANNOTATIONS: Record<string, ToolAnnotations | undefined> = {
  none: undefined,
  readOnly: { readOnlyHint: true },
  lying: { readOnlyHint: true, destructiveHint: true },
  destructive: { destructiveHint: true },
  readOnlyOpenWorld: { readOnlyHint: true, openWorldHint: true },
  readOnlyClosedWorld: { readOnlyHint: true, openWorldHint: false },
};

type Trifecta = "none" | "same" | "other";
type Row = [annotations: string, trusted: boolean, choice: ToolPolicy | undefined, trifecta: Trifecta, expected: "allow" | "ask" | "never"];

function decide(
  annotations: string,
  trusted: boolean,
  userChoice: ToolPolicy | undefined,
  trifecta: Trifecta,
  extra: Partial<ApprovalInput> = {},
) {
  const contextSources = trifecta === "none" ? [] : trifecta === "same" ? [SELF] : [OTHER];
  return decideApproval({
    tool: { kind: "tool", annotations: ANNOTATIONS[annotations], serverId: "s1", serverName: "files" },
    trusted,
    userChoice,
    contextSources,
    trifectaCheck: true,
    ...extra,
  });
}

// annotation combinations × trusted/untrusted × user choice × lethal-trifecta state → allow/ask/never
const TABLE: Row[] = [
  // Untrusted server: annotations never lower the level; only the user's "always" does.
  ["none", false, undefined, "none", "ask"],
  ["readOnly", false, undefined, "none", "ask"],
  ["lying", false, undefined, "none", "ask"],
  ["destructive", false, undefined, "none", "ask"],
  ["readOnlyClosedWorld", false, undefined, "none", "ask"],
  ["readOnly", false, "allow", "none", "allow"],
  ["readOnly", false, "ask", "none", "ask"],
  ["readOnly", false, "deny", "none", "never"],
  // Trusted server: read-only-claimed tools run by default; a contradictory claim does not count.
  ["readOnly", true, undefined, "none", "allow"],
  ["readOnlyOpenWorld", true, undefined, "none", "allow"],
  ["lying", true, undefined, "none", "ask"],
  ["destructive", true, undefined, "none", "ask"],
  ["none", true, undefined, "none", "ask"],
  ["none", true, "allow", "none", "allow"],
  ["readOnly", true, "ask", "none", "ask"],
  ["readOnly", true, "deny", "none", "never"],
  // Lethal trifecta: after content entered the turn, a call that could send data out asks even when allowed.
  ["readOnly", false, "allow", "same", "ask"],
  ["none", true, "allow", "same", "ask"],
  ["destructive", true, "allow", "other", "ask"],
  ["readOnlyOpenWorld", true, undefined, "same", "ask"],
  ["readOnly", true, undefined, "other", "ask"],
  ["readOnly", true, "allow", "other", "ask"],
  // ...but a trusted read-only, closed-world tool of the same server stays allowed, and "never" stays never.
  ["readOnly", true, undefined, "same", "allow"],
  ["readOnlyClosedWorld", true, "allow", "same", "allow"],
  ["lying", true, "allow", "same", "ask"],
  ["none", false, "deny", "other", "never"],
  ["readOnly", true, "deny", "same", "never"],
];

describe("approval policy table", () => {
  it.each(TABLE)("%s, trusted=%s, choice=%s, trifecta=%s → %s", (annotations, trusted, choice, trifecta, expected) => {
    expect(decide(annotations, trusted, choice, trifecta).action).toBe(expected);
  });

  it("names the server the content came from when the trifecta rule asks", () => {
    const decision = decide("none", true, "allow", "other");
    expect(decision).toEqual({
      action: "ask",
      reason: 'This call follows content from server "web" in this conversation and could send data out.',
    });
  });

  it("switching the trifecta check off for the server restores the user's choice", () => {
    expect(decide("none", false, "allow", "other", { trifectaCheck: false }).action).toBe("allow");
  });

  it("says why it asks on an untrusted server and for a contradictory claim", () => {
    expect(decide("readOnly", false, undefined, "none")).toEqual({
      action: "ask",
      reason: 'The server "files" is not trusted: its tools ask until you allow them.',
    });
    expect(decide("lying", true, undefined, "none")).toEqual({
      action: "ask",
      reason: "The server marks this tool both read-only and destructive.",
    });
  });

  it("wrapper tools follow the server's rules: ask when untrusted, run when trusted", () => {
    const wrapper = (trusted: boolean) =>
      decideApproval({
        tool: { kind: "read_resource", serverId: "s1", serverName: "files" },
        trusted,
        contextSources: [],
        trifectaCheck: true,
      }).action;
    expect(wrapper(false)).toBe("ask");
    expect(wrapper(true)).toBe("allow");
  });
});

describe("workspace policies members cannot loosen", () => {
  const tool = { kind: "tool" as const, annotations: { readOnlyHint: true }, serverId: "s1", serverName: "files" };
  it.each([
    // [workspace, user, effective]
    ["ask", undefined, "ask"],
    ["ask", "allow", "ask"],
    ["ask", "deny", "deny"],
    ["deny", "allow", "deny"],
    ["allow", undefined, "allow"],
    ["allow", "ask", "ask"],
  ] as const)("workspace %s + user %s → %s", (workspaceChoice, userChoice, expected) => {
    expect(effectivePolicy({ tool, trusted: false, userChoice, workspaceChoice })).toBe(expected);
  });

  it("a workspace never is reported as the workspace's", () => {
    expect(
      decideApproval({ tool, trusted: true, workspaceChoice: "deny", userChoice: "allow", contextSources: [], trifectaCheck: true }),
    ).toEqual({
      action: "never",
      reason: DENIED_BY_WORKSPACE,
    });
  });

  it("orders policies deny > ask > allow", () => {
    expect(stricterPolicy("allow", "ask")).toBe("ask");
    expect(stricterPolicy("deny", "ask")).toBe("deny");
    expect(stricterPolicy("allow", "allow")).toBe("allow");
  });
});

describe("AI SDK statuses, policy names and error texts", () => {
  it("maps decisions to AI SDK approval statuses with the reason", () => {
    expect(approvalStatus({ action: "allow" })).toEqual({ type: "not-applicable" });
    expect(approvalStatus({ action: "ask", reason: "r" })).toEqual({ type: "user-approval", reason: "r" });
    expect(approvalStatus({ action: "never", reason: DENIED_BY_POLICY })).toEqual({ type: "denied", reason: DENIED_BY_POLICY });
  });

  it("keeps wrapper policies apart from server tools", () => {
    expect(policyToolName({ kind: "tool", rawName: "list_resources" })).toBe("list_resources");
    expect(policyToolName({ kind: "list_resources", rawName: "list_resources" })).toBe("#list_resources");
  });

  it("redacts the user's key and usual secrets from model errors", () => {
    const text = chatErrorText(new Error("401 for key my-custom-key-123 and sk-abcdefghijklmnopqrstuv"), ["my-custom-key-123"]);
    expect(text).not.toContain("my-custom-key-123");
    expect(text).not.toContain("sk-abcdefghijklmnopqrstuv");
    expect(text.startsWith("The model request failed:")).toBe(true);
  });
});
