"use client";
/**
 * The full MCP content of a tool result, by content type (docs/architecture.md#tools-the-model-sees: "the UI keeps the full MCP
 * content"). Everything is rendered as text or through the safe-content rules: no HTML from
 * servers, links only http(s), media only from base64 with an allow-listed type.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";
import { mediaDataUrl, safeHref } from "@/lib/agent/safe-content";
import { StructuredView } from "./json-tree";

type Block = CallToolResult["content"][number];

function Media({ kind, mimeType, data }: { kind: "image" | "audio"; mimeType?: string; data?: string }) {
  const src = mediaDataUrl(kind, mimeType, data);
  if (!src)
    return (
      <p className="text-xs text-zinc-500">
        [{kind} of type {mimeType || "unknown"} not shown]
      </p>
    );
  return kind === "image" ? (
    // biome-ignore lint/performance/noImgElement: a data: URL built from allow-listed base64; next/image has nothing to optimise
    <img data-testid="tool-image" src={src} alt="Tool result" className="max-h-64 rounded border" />
  ) : (
    // biome-ignore lint/a11y/useMediaCaption: audio a tool returned comes without captions to offer
    <audio data-testid="tool-audio" controls src={src} />
  );
}

function UriLabel({ uri, label }: { uri: string; label?: string }) {
  const href = safeHref(uri);
  return href ? (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-blue-700 underline dark:text-blue-400">
      {label || uri}
    </a>
  ) : (
    <code className="text-xs">{label ? `${label} (${uri})` : uri}</code>
  );
}

function ContentBlock({ block }: { block: Block }) {
  switch (block.type) {
    case "text":
      return (
        <pre data-testid="tool-text" className="whitespace-pre-wrap break-words font-mono text-xs">
          {block.text}
        </pre>
      );
    case "image":
      return <Media kind="image" mimeType={block.mimeType} data={block.data} />;
    case "audio":
      return <Media kind="audio" mimeType={block.mimeType} data={block.data} />;
    case "resource": {
      const r = block.resource;
      return (
        <div data-testid="tool-resource" className="rounded border border-zinc-200 p-2 dark:border-zinc-700">
          <div className="mb-1 text-xs text-zinc-500">
            Resource <UriLabel uri={r.uri} /> {r.mimeType && <span>({r.mimeType})</span>}
          </div>
          {"text" in r && typeof r.text === "string" ? (
            <pre className="whitespace-pre-wrap break-words font-mono text-xs">{r.text}</pre>
          ) : r.mimeType?.startsWith("image/") ? (
            <Media kind="image" mimeType={r.mimeType} data={(r as { blob?: string }).blob} />
          ) : (
            <p className="text-xs text-zinc-500">[binary, {Math.floor(((r as { blob?: string }).blob?.length ?? 0) * 0.75)} bytes]</p>
          )}
        </div>
      );
    }
    case "resource_link":
      return (
        <div data-testid="tool-resource-link" className="text-xs">
          Link: <UriLabel uri={block.uri} label={block.title ?? block.name} />
          {block.description && <span className="text-zinc-500"> — {block.description}</span>}
        </div>
      );
    default:
      return <pre className="text-xs">{JSON.stringify(block)}</pre>;
  }
}

/** Every content block, then structuredContent (as a table or JSON tree). */
export function ToolResult({ result }: { result: CallToolResult }) {
  return (
    <div data-testid="tool-result" className="space-y-2">
      {(result.content ?? []).map((block, i) => (
        <ContentBlock key={i} block={block} />
      ))}
      {result.structuredContent !== undefined && (
        <div data-testid="tool-structured">
          <div className="text-xs text-zinc-500">Structured content</div>
          <StructuredView value={result.structuredContent} />
        </div>
      )}
    </div>
  );
}
