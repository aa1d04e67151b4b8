"use client";
/**
 * An MCP App inline (docs/mcp-apps.md): the server's `ui://` HTML in an iframe with an opaque origin
 * (`sandbox="allow-scripts"`, no `allow-same-origin`) and its own CSP, talking to the host through
 * the official app bridge. The app gets its tool's input and result only; what it asks (tool calls,
 * links, messages) goes through the server's checks and the user's confirmation. Exported for the
 * server inspector too.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { useEffect, useRef, useState } from "react";
import type { AppResourceView } from "@/lib/use-cases/app-resource";
import { api, workspaceApiPath } from "../api-client";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";
import { AppPrompt, type AppQuestion } from "./app-prompt";
import { askAppTool, confirmLink, confirmMessage } from "./app-requests";

/** What the frame shows: one tool call's app. */
export interface AppFrameProps {
  serverId: string;
  serverName: string;
  uri: string;
  /** The tool's raw name and its call (the app is told about this call only). */
  tool: string;
  toolCallId: string;
  input: Record<string, unknown>;
  result: CallToolResult;
  /** The chat the call belongs to: an app's model context joins its next message; absent = refused. */
  chatId?: string;
  /** Where a message the app sends goes once the user agreed (the chat's composer); absent = refused. */
  onMessage?: (text: string) => void;
}

/** How long an app may take to complete the bridge handshake before the frame reports it broken. */
const START_TIMEOUT_MS = 15_000;

function theme(): "light" | "dark" {
  return document.documentElement.classList.contains("dark") || window.matchMedia?.("(prefers-color-scheme: dark)").matches
    ? "dark"
    : "light";
}

function textOf(content: { type: string; text?: string }[]): string {
  return content.flatMap((c) => (c.type === "text" && c.text ? [c.text] : [])).join("\n");
}

/** The frame with its bridge; errors stay inside the frame's box. */
export function AppFrame(props: AppFrameProps) {
  const { serverId, serverName, uri, tool, toolCallId } = props;
  const ws = useWorkspaceSlug();
  const iframe = useRef<HTMLIFrameElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const [resource, setResource] = useState<AppResourceView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [height, setHeight] = useState(320);
  const [question, setQuestion] = useState<AppQuestion | null>(null);

  useEffect(() => {
    let live = true;
    api<AppResourceView>(
      workspaceApiPath(ws, `apps/resource?serverId=${encodeURIComponent(serverId)}&uri=${encodeURIComponent(uri)}`),
    ).then(
      (view) => live && setResource(view),
      (e: Error) => live && setError(`The app could not be loaded: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, [ws, serverId, uri]);

  useEffect(() => {
    const frame = iframe.current;
    if (!resource || !frame?.contentWindow) return;
    const ask = (q: Omit<AppQuestion, "answer">) => new Promise<boolean>((resolve) => setQuestion({ ...q, answer: resolve }));
    const bridge = new AppBridge(
      null,
      { name: "Switchboard", version: "0.1.0" },
      { openLinks: {}, serverTools: {}, logging: {}, message: { text: {} }, updateModelContext: { text: {}, structuredContent: {} } },
      {
        hostContext: {
          theme: theme(),
          displayMode: "inline",
          availableDisplayModes: ["inline"],
          platform: "web",
          locale: navigator.language,
          // Apps key their saved state by the call; the chat re-sends the same call after a reload.
          toolInfo: { id: toolCallId, tool: { name: tool, inputSchema: { type: "object" } } },
        },
      },
    );
    let started = false;
    const timer = window.setTimeout(() => {
      if (!started) setError("The app did not start (no answer over the app bridge).");
    }, START_TIMEOUT_MS);
    bridge.addEventListener("sandboxready", () => void bridge.sendSandboxResourceReady({ html: resource.html }));
    bridge.oninitialized = () => {
      started = true;
      void bridge.sendToolInput({ arguments: latest.current.input });
      void bridge.sendToolResult(latest.current.result);
    };
    bridge.onsizechange = ({ height: h }) => {
      if (typeof h === "number") setHeight(Math.max(60, Math.min(1200, Math.ceil(h))));
    };
    bridge.oncalltool = (params) => askAppTool({ ws, serverId, name: params.name, arguments: params.arguments ?? {}, ask });
    bridge.onopenlink = async ({ url }) => ((await confirmLink({ ws, serverId, serverName, url, ask })) ? {} : { isError: true });
    bridge.onmessage = async ({ content }) => {
      const send = latest.current.onMessage;
      const text = await confirmMessage({ ws, serverId, serverName, text: textOf(content), ask, canSend: !!send });
      if (text === null || !send) return { isError: true };
      send(text);
      return {};
    };
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const chatId = latest.current.chatId;
      // Outside a chat (the server inspector) there is no conversation to give context to.
      if (!chatId) throw new Error("This app is not shown in a chat: there is no model to give context to.");
      await api(workspaceApiPath(ws, "apps/context"), {
        method: "POST",
        json: { chatId, toolCallId, serverId, content: content ?? [], structuredContent },
      });
      return {};
    };
    bridge.onloggingmessage = () => {};
    const transport = new PostMessageTransport(frame.contentWindow, frame.contentWindow);
    bridge.connect(transport).then(
      () => {
        // The bridge listens before the sandbox page can say it is ready.
        frame.src = `/api/apps/sandbox?csp=${encodeURIComponent(JSON.stringify(resource.csp))}`;
      },
      (e: Error) => setError(`The app bridge failed: ${e.message}`),
    );
    return () => {
      window.clearTimeout(timer);
      void bridge.close();
    };
  }, [resource, ws, serverId, serverName, tool, toolCallId]);

  return (
    <div data-testid="app-frame" data-server={serverName} className="space-y-2">
      {question && (
        <AppPrompt
          question={question}
          onAnswer={(ok) => {
            question.answer(ok);
            setQuestion(null);
          }}
        />
      )}
      {error ? (
        <p
          data-testid="app-error"
          role="alert"
          className="rounded border border-red-300 bg-red-50 p-3 text-xs text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {error}
        </p>
      ) : (
        resource && (
          <iframe
            ref={iframe}
            title={`App of ${serverName}`}
            data-testid="app-iframe"
            // Scripts only: no allow-same-origin (opaque origin, no cookies or storage of the app), no popups, no top navigation.
            sandbox="allow-scripts"
            referrerPolicy="no-referrer"
            style={{ height }}
            className={`w-full rounded bg-white ${resource.prefersBorder ? "border border-zinc-300 dark:border-zinc-700" : ""}`}
          />
        )
      )}
    </div>
  );
}
