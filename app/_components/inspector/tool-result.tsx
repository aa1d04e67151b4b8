"use client";
/**
 * A tool call's whole result: each content block, the structured content (checked against the
 * tool's output schema by the MCP client), whether the server flagged an error, and how long the call took.
 * Images show only as `data:` URLs built from the block's bytes; links are shown, never followed.
 */
import type { HandCallResult } from "./inspector-api";

/** The result panel. */
export function ToolResult({ outcome, outputSchema }: { outcome: HandCallResult; outputSchema?: Record<string, unknown> }) {
  const { result, durationMs } = outcome;
  const structured = result.structuredContent;
  // The MCP client checks structured content against the output schema before we see it: a
  // mismatch arrives as an error result, so a success with both means it matched.
  const checked = structured !== undefined && outputSchema !== undefined && !result.isError;
  return (
    <div className="space-y-2 rounded border border-zinc-200 p-3 text-sm dark:border-zinc-800" data-testid="tool-result">
      <p className="text-xs">
        <span
          data-testid="result-status"
          className={`rounded px-1.5 py-0.5 font-medium ${result.isError ? "bg-red-100 text-red-800" : "bg-emerald-100 text-emerald-800"}`}
        >
          {result.isError ? "isError" : "ok"}
        </span>
        {durationMs !== null && (
          <span className="ml-2 text-zinc-500" data-testid="result-duration">
            {durationMs.toFixed(0)} ms
          </span>
        )}
        {result.errorCode && <span className="ml-2 text-zinc-500">{result.errorCode}</span>}
      </p>
      {(result.content ?? []).map((block, index) => (
        <div key={index} data-testid="content-block" className="rounded bg-zinc-50 p-2 dark:bg-zinc-900">
          <span className="text-xs text-zinc-500">{block.type}</span>
          {block.type === "text" && <pre className="whitespace-pre-wrap text-xs">{block.text}</pre>}
          {block.type === "image" && (
            // biome-ignore lint/performance/noImgElement: the bytes are inline (a data: URL); there is nothing to optimise.
            <img src={`data:${block.mimeType};base64,${block.data}`} alt="" className="max-h-64" />
          )}
          {block.type === "audio" && (
            <p className="text-xs">
              {block.mimeType} audio ({block.data.length} base64 characters)
            </p>
          )}
          {block.type === "resource_link" && (
            <p className="text-xs">
              <code>{block.uri}</code> {block.name}
            </p>
          )}
          {block.type === "resource" && <pre className="whitespace-pre-wrap text-xs">{JSON.stringify(block.resource, null, 2)}</pre>}
        </div>
      ))}
      {structured !== undefined && (
        <div data-testid="structured-content">
          <p className="text-xs text-zinc-500" data-testid="schema-check">
            structured content
            {checked
              ? " — matches the tool's output schema (checked by the MCP client)"
              : outputSchema
                ? ""
                : " (the tool declares no output schema)"}
          </p>
          <pre className="whitespace-pre-wrap rounded bg-zinc-50 p-2 text-xs dark:bg-zinc-900">{JSON.stringify(structured, null, 2)}</pre>
        </div>
      )}
    </div>
  );
}
