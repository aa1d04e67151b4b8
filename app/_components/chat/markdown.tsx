"use client";
/**
 * Safe markdown for model answers: GFM and code highlighting, no raw HTML (react-markdown escapes
 * it by default and we add no rehype-raw), links only http(s), and no remote images — a model
 * steered by a tool result could otherwise leak data through an image URL.
 */
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { markdownUrl, safeHref } from "@/lib/agent/safe-content";
import "highlight.js/styles/github.css";

const components: Components = {
  a: ({ href, children }) => {
    const safe = safeHref(href);
    if (!safe) return <span data-testid="unsafe-link">{children}</span>;
    return (
      <a href={safe} target="_blank" rel="noopener noreferrer nofollow" className="text-primary underline">
        {children}
      </a>
    );
  },
  img: ({ alt }) => <span className="text-muted-foreground">[image: {alt || "no description"}]</span>,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded bg-zinc-100 p-3 text-xs dark:bg-zinc-800">{children}</pre>,
  table: ({ children }) => (
    <table className="my-2 border-collapse text-sm [&_td]:border [&_td]:px-2 [&_th]:border [&_th]:px-2">{children}</table>
  ),
};

/** Render markdown text safely. */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="prose-sm max-w-none space-y-2 break-words [&_code]:font-mono [&_h1]:text-lg [&_h1]:font-semibold [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5">
      <ReactMarkdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[rehypeHighlight]}
        urlTransform={markdownUrl}
        components={components}
        skipHtml
      >
        {text}
      </ReactMarkdown>
    </div>
  );
}
