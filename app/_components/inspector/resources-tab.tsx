"use client";
/**
 * Resources by hand: list resources and templates, read one (a template once its variables are
 * filled, with the server's completions), and subscribe to see `resources/updated` arrive live.
 */
import type { ReadResourceResult, Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import { useCallback, useEffect, useState } from "react";
import { expandTemplate, templateVariables } from "@/lib/agent/uri-template";
import { ApiError, listResources } from "../api-client";
import { Button } from "../ui/primitives/button";
import { useLiveEvents } from "../events/live-events";
import { CompletionInput } from "./completion-input";
import { complete, readResource, setSubscribed } from "./inspector-api";
import { useWorkspaceSlug } from "../workspaces/workspace-scope";

/** The Resources tab; `initialUri` (`&uri=`) is read at once. */
export function ResourcesTab({ serverId, connected, initialUri }: { serverId: string; connected: boolean; initialUri: string | null }) {
  const ws = useWorkspaceSlug();
  const [lists, setLists] = useState<{ resources: Resource[]; resourceTemplates: ResourceTemplate[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [uri, setUri] = useState<string | null>(initialUri);
  const [template, setTemplate] = useState<ResourceTemplate | null>(null);

  useEffect(() => {
    if (!connected) return;
    listResources(ws, serverId).then(setLists, (e: Error) => setProblem(e.message));
  }, [ws, serverId, connected]);

  if (!connected && !lists) return <p className="text-sm text-zinc-500">Start the server (above) to list its resources.</p>;
  return (
    <div className="grid gap-4 md:grid-cols-[18rem_1fr]">
      <div className="space-y-3 text-sm">
        {problem && <p className="field-error">{problem}</p>}
        <ul className="space-y-1" data-testid="inspector-resources">
          {lists?.resources.map((r) => (
            <li key={r.uri}>
              <Button
                type="button"
                variant="ghost"
                className="block h-auto w-full truncate px-2 py-1 text-left font-normal"
                onClick={() => {
                  setTemplate(null);
                  setUri(r.uri);
                }}
                title={r.uri}
                data-testid="resource-item"
              >
                {r.name} <code className="text-xs text-zinc-500">{r.uri}</code>
              </Button>
            </li>
          ))}
        </ul>
        {lists && lists.resourceTemplates.length > 0 && (
          <>
            <h3 className="font-medium">Templates</h3>
            <ul className="space-y-1" data-testid="inspector-templates">
              {lists.resourceTemplates.map((t) => (
                <li key={t.uriTemplate}>
                  <Button
                    type="button"
                    variant="ghost"
                    className="block h-auto w-full truncate px-2 py-1 text-left font-normal"
                    onClick={() => {
                      setUri(null);
                      setTemplate(t);
                    }}
                    data-testid="template-item"
                  >
                    {t.name} <code className="text-xs text-zinc-500">{t.uriTemplate}</code>
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <div className="min-w-0 space-y-3">
        {template && <TemplateForm key={template.uriTemplate} serverId={serverId} template={template} onRead={setUri} />}
        {uri ? (
          <ResourceReader key={uri} serverId={serverId} uri={uri} />
        ) : (
          !template && <p className="text-sm text-zinc-500">Pick a resource or a template.</p>
        )}
      </div>
    </div>
  );
}

function TemplateForm({ serverId, template, onRead }: { serverId: string; template: ResourceTemplate; onRead: (uri: string) => void }) {
  const ws = useWorkspaceSlug();
  const names = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>(Object.fromEntries(names.map((n) => [n, ""])));
  const suggest = useCallback(
    (name: string) => (value: string) => complete(ws, serverId, { type: "ref/resource", uri: template.uriTemplate }, name, value, values),
    [ws, serverId, template.uriTemplate, values],
  );
  return (
    <form
      className="space-y-2 rounded border border-zinc-200 p-3 dark:border-zinc-800"
      data-testid="template-form"
      onSubmit={(e) => {
        e.preventDefault();
        onRead(expandTemplate(template.uriTemplate, values));
      }}
    >
      <p className="text-sm">
        <code>{template.uriTemplate}</code>
      </p>
      {names.map((name) => (
        <CompletionInput
          key={name}
          name={name}
          value={values[name] ?? ""}
          onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
          suggest={suggest(name)}
          required
        />
      ))}
      <Button type="submit" data-testid="read-template">
        Read
      </Button>
    </form>
  );
}

function ResourceReader({ serverId, uri }: { serverId: string; uri: string }) {
  const ws = useWorkspaceSlug();
  const [result, setResult] = useState<ReadResourceResult | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [subscribed, setIsSubscribed] = useState(false);
  const [updates, setUpdates] = useState<number[]>([]);
  const read = useCallback(() => {
    readResource(ws, serverId, uri).then(
      (r) => {
        setResult(r);
        setProblem(null);
      },
      (e: Error) => setProblem(e.message),
    );
  }, [ws, serverId, uri]);
  useEffect(read, [read]);
  useLiveEvents((event) => {
    if (event.type !== "resource_updated" || event.serverId !== serverId || event.uri !== uri) return;
    setUpdates((list) => [Date.now(), ...list].slice(0, 20));
    read();
  });
  // Leaving the resource ends its subscription.
  useEffect(() => {
    if (!subscribed) return;
    return () => {
      void setSubscribed(ws, serverId, uri, false).catch((e: Error) => console.warn("unsubscribe failed", e.message));
    };
  }, [ws, serverId, uri, subscribed]);

  async function toggle() {
    try {
      await setSubscribed(ws, serverId, uri, !subscribed);
      setIsSubscribed(!subscribed);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setProblem(error.message);
    }
  }

  return (
    <div className="space-y-2 text-sm" data-testid="resource-reader">
      <div className="flex items-center gap-2">
        <code className="truncate" data-testid="resource-uri">
          {uri}
        </code>
        <Button type="button" variant="secondary" size="sm" onClick={read}>
          Read again
        </Button>
        <Button type="button" variant="secondary" size="sm" onClick={toggle} data-testid="subscribe">
          {subscribed ? "Unsubscribe" : "Subscribe"}
        </Button>
      </div>
      {updates.length > 0 && (
        <p className="text-xs text-emerald-700" data-testid="resource-updates">
          {updates.length} update{updates.length === 1 ? "" : "s"} received, last at {new Date(updates[0]).toLocaleTimeString()}
        </p>
      )}
      {problem && <p className="field-error">{problem}</p>}
      {result?.contents.map((content) => (
        <div key={content.uri} className="rounded bg-zinc-50 p-2 dark:bg-zinc-900" data-testid="resource-content">
          <p className="text-xs text-zinc-500">
            {content.uri} {content.mimeType}
          </p>
          {"text" in content ? (
            <pre className="whitespace-pre-wrap text-xs">{content.text}</pre>
          ) : (
            <p className="text-xs">binary, {content.blob.length} base64 characters</p>
          )}
        </div>
      ))}
    </div>
  );
}
