"use client";
/**
 * The full MCP content of a tool result, by content type (docs/architecture.md#tools-the-model-sees: "the UI keeps the full MCP
 * content"). Everything is rendered as text or through the safe-content rules: no HTML from
 * servers, links only http(s), media only from base64 with an allow-listed type. Structured
 * content is shown once (a text block that only repeats it as JSON is left out), long text is
 * clamped, images open in a lightbox and resource links open in the server's inspector or attach.
 * Credentials in the result are masked (docs/security.md#redaction) until the user asks for the raw result.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { PaperclipIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { mediaDataUrl, safeHref } from "@/lib/agent/safe-content";
import { redact, redactJson } from "@/lib/redact";
import { Button } from "../ui/primitives/button";
import { Dialog, DialogContent, DialogTitle } from "../ui/primitives/dialog";
import { requestAttach } from "./attach-event";
import { useWorkspaceSlug, workspaceHref } from "../workspaces/workspace-scope";
import { StructuredView } from "./json-tree";

type Block = CallToolResult["content"][number];

/** Characters of text shown before "Show more". */
const CLAMP = 1200;

function Media({ kind, mimeType, data }: { kind: "image" | "audio"; mimeType?: string; data?: string }) {
  const [zoomed, setZoomed] = useState(false);
  const src = mediaDataUrl(kind, mimeType, data);
  if (!src)
    return (
      <p className="text-xs text-muted-foreground">
        [{kind} of type {mimeType || "unknown"} not shown]
      </p>
    );
  if (kind === "audio") {
    // biome-ignore lint/a11y/useMediaCaption: audio a tool returned comes without captions to offer
    return <audio data-testid="tool-audio" controls src={src} />;
  }
  return (
    <>
      <button type="button" onClick={() => setZoomed(true)} className="block rounded" aria-label="Enlarge image">
        {/* biome-ignore lint/performance/noImgElement: a data: URL built from allow-listed base64; next/image has nothing to optimise */}
        <img data-testid="tool-image" src={src} alt="Tool result" className="max-h-64 max-w-full rounded border border-border" />
      </button>
      <Dialog open={zoomed} onOpenChange={setZoomed}>
        <DialogContent className="max-w-[95vw] sm:max-w-[90vw]" data-testid="image-lightbox">
          <DialogTitle>Image</DialogTitle>
          {/* biome-ignore lint/performance/noImgElement: same data: URL, full size */}
          <img src={src} alt="Tool result, enlarged" className="max-h-[80dvh] w-auto object-contain" />
        </DialogContent>
      </Dialog>
    </>
  );
}

function UriLabel({ uri, label }: { uri: string; label?: string }) {
  const href = safeHref(uri);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-primary underline">
      {label || uri}
    </a>
  ) : (
    <code className="break-all text-xs">{label ? `${label} (${uri})` : uri}</code>
  );
}

/** Long text clamped to its first lines, with a toggle. */
function ClampedText({ text, testId }: { text: string; testId?: string }) {
  const [all, setAll] = useState(false);
  const long = text.length > CLAMP;
  return (
    <div>
      <pre data-testid={testId} className="whitespace-pre-wrap break-words font-mono text-xs">
        {long && !all ? `${text.slice(0, CLAMP)}…` : text}
      </pre>
      {long && (
        <Button variant="link" size="sm" className="h-auto px-0" aria-expanded={all} onClick={() => setAll(!all)}>
          {all ? "Show less" : `Show more (${text.length.toLocaleString()} characters)`}
        </Button>
      )}
    </div>
  );
}

/** The inspector page of a server in workspace `ws`, the chat's (deep link to one resource). */
function inspectorHref(ws: string, serverId: string, uri: string): string {
  return workspaceHref(ws, `servers/${encodeURIComponent(serverId)}?tab=resources&uri=${encodeURIComponent(uri)}`);
}

function ResourceLink({ block, server }: { block: Extract<Block, { type: "resource_link" }>; server?: ResultServer }) {
  const ws = useWorkspaceSlug();
  return (
    <div data-testid="tool-resource-link" className="flex flex-wrap items-center gap-x-2 text-xs">
      <span>
        Link: <UriLabel uri={block.uri} label={block.title ?? block.name} />
        {block.description && <span className="text-muted-foreground"> — {block.description}</span>}
      </span>
      {server && (
        <>
          <a href={inspectorHref(ws, server.id, block.uri)} className="text-primary underline" data-testid="resource-link-open">
            Open in inspector
          </a>
          <Button
            variant="ghost"
            size="sm"
            className="h-6"
            data-testid="resource-link-attach"
            onClick={() => requestAttach({ serverId: server.id, serverName: server.name, uri: block.uri, name: block.title ?? block.name })}
          >
            <PaperclipIcon aria-hidden /> Attach
          </Button>
        </>
      )}
    </div>
  );
}

function ContentBlock({ block, server }: { block: Block; server?: ResultServer }) {
  switch (block.type) {
    case "text":
      return <ClampedText text={block.text} testId="tool-text" />;
    case "image":
      return <Media kind="image" mimeType={block.mimeType} data={block.data} />;
    case "audio":
      return <Media kind="audio" mimeType={block.mimeType} data={block.data} />;
    case "resource": {
      const r = block.resource;
      return (
        <div data-testid="tool-resource" className="rounded border border-border p-2">
          <div className="mb-1 text-xs text-muted-foreground">
            Resource <UriLabel uri={r.uri} /> {r.mimeType && <span>({r.mimeType})</span>}
          </div>
          {"text" in r && typeof r.text === "string" ? (
            <ClampedText text={r.text} />
          ) : r.mimeType?.startsWith("image/") ? (
            <Media kind="image" mimeType={r.mimeType} data={(r as { blob?: string }).blob} />
          ) : (
            <p className="text-xs text-muted-foreground">
              [binary, {Math.floor(((r as { blob?: string }).blob?.length ?? 0) * 0.75)} bytes]
            </p>
          )}
        </div>
      );
    }
    case "resource_link":
      return <ResourceLink block={block} server={server} />;
    default:
      return <pre className="text-xs">{JSON.stringify(block)}</pre>;
  }
}

/** Whether a text block only repeats the structured content as JSON (servers send both for older clients). */
export function repeatsStructured(block: Block, structured: unknown): boolean {
  if (block.type !== "text" || structured === undefined) return false;
  try {
    return JSON.stringify(JSON.parse(block.text)) === JSON.stringify(structured);
  } catch {
    // Not JSON at all: real text, so it is shown.
    return false;
  }
}

/** The server a result came from (for resource links). */
export interface ResultServer {
  id: string;
  name: string;
}

/** The result with credentials masked: text of text blocks and resources, and every string of structuredContent. */
export function maskedResult(result: CallToolResult): CallToolResult {
  const content = (result.content ?? []).map((block) => {
    if (block.type === "text") return { ...block, text: redact(block.text) };
    if (block.type === "resource" && "text" in block.resource && typeof block.resource.text === "string")
      return { ...block, resource: { ...block.resource, text: redact(block.resource.text) } };
    return block;
  });
  return {
    ...result,
    content,
    ...(result.structuredContent !== undefined ? { structuredContent: redactJson(result.structuredContent) } : {}),
  };
}

/** Every content block, then structuredContent (as a table or JSON tree), each shown once; masked unless the user opts in. */
export function ToolResult({ result, server }: { result: CallToolResult; server?: ResultServer }) {
  const [raw, setRaw] = useState(false);
  // Masking walks the whole result: once per result, not on every render of the card.
  const masked = useMemo(() => maskedResult(result), [result]);
  const hidesSomething = useMemo(() => JSON.stringify(masked) !== JSON.stringify(result), [masked, result]);
  const shown = raw ? result : masked;
  const blocks = (shown.content ?? []).filter((b) => !repeatsStructured(b, shown.structuredContent));
  return (
    <div data-testid="tool-result" className="min-w-0 space-y-2">
      {hidesSomething && (
        <div className="flex items-center gap-2 text-xs text-muted-foreground">
          <span>{raw ? "Showing the raw result, credentials included." : "Credentials in this result are masked."}</span>
          <Button
            variant="link"
            size="sm"
            className="h-auto px-0"
            data-testid="tool-result-raw"
            aria-pressed={raw}
            onClick={() => setRaw(!raw)}
          >
            {raw ? "Mask again" : "Show raw"}
          </Button>
        </div>
      )}
      {blocks.map((block, i) => (
        <ContentBlock key={i} block={block} server={server} />
      ))}
      {shown.structuredContent !== undefined && (
        <div data-testid="tool-structured" className="overflow-x-auto">
          <div className="text-xs text-muted-foreground">Structured content</div>
          <StructuredView value={shown.structuredContent} />
        </div>
      )}
    </div>
  );
}
