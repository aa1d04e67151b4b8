"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "../api-client";
import { Button } from "../ui/primitives/button";
import { cn } from "../ui/primitives/cn";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../ui/primitives/dialog";
import { FieldError, Label } from "../ui/primitives/label";
import { Input } from "../ui/primitives/input";
import { NativeSelect } from "../ui/primitives/select";
import { type SwitcherWorkspace, useLiveWorkspaces } from "./live-workspaces";

export type { SwitcherWorkspace } from "./live-workspaces";

// `href` is where the link goes when it is not the section's own path: Settings opens its first
// page directly instead of through the server redirect of /settings (a second navigation, during
// which the page briefly had no title).
const SECTIONS = [
  { path: "chat", label: "Chat" },
  { path: "servers", label: "Servers" },
  { path: "settings", label: "Settings", href: "settings/account" },
];

const linkClass = (current: boolean) =>
  cn(
    "rounded px-1 py-1 text-muted-foreground hover:text-foreground",
    current && "font-medium text-foreground underline decoration-primary decoration-2 underline-offset-[6px]",
  );

/**
 * The header's workspace switcher and main navigation, both following the workspace in the URL;
 * the current section is marked with `aria-current="page"`. The list follows membership changes
 * live (the event stream), not only on navigation. On phones the sections take the
 * header's second row.
 */
export function WorkspaceNav({ workspaces: initial, isAdmin }: { workspaces: SwitcherWorkspace[]; isAdmin: boolean }) {
  const pathname = usePathname();
  const router = useRouter();
  const workspaces = useLiveWorkspaces(initial);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const match = /^\/w\/([^/]+)(?:\/([^/]+))?/.exec(pathname);
  const slug = match ? decodeURIComponent(match[1]) : "personal";
  const section = match?.[2] && SECTIONS.some((s) => s.path === match[2]) ? match[2] : "chat";
  const current = match ? section : pathname.split("/")[1];
  const onCatalog = pathname.startsWith("/admin/catalog");

  return (
    <>
      <NativeSelect
        aria-label="Workspace"
        data-testid="workspace-switcher"
        className="col-start-2 row-start-1 h-8 w-auto max-w-full min-w-0 justify-self-start md:max-w-[14rem]"
        value={slug}
        onChange={(e) => {
          if (e.target.value === "__new") return setCreating(true);
          router.push(`/w/${encodeURIComponent(e.target.value)}/${section}`);
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.slug}>
            {w.personal ? "Personal" : w.name}
          </option>
        ))}
        <option value="__new">+ New workspace…</option>
      </NativeSelect>
      <Dialog open={creating} onOpenChange={setCreating}>
        <DialogContent>
          <form
            className="flex flex-col gap-3"
            onSubmit={async (e) => {
              e.preventDefault();
              const name = String(new FormData(e.currentTarget).get("name") ?? "");
              try {
                const created = await api<{ slug: string }>("/api/workspaces", { method: "POST", json: { name } });
                setCreating(false);
                router.push(`/w/${created.slug}/servers`);
                router.refresh();
              } catch (err) {
                setError((err as Error).message);
              }
            }}
          >
            <DialogHeader>
              <DialogTitle>New workspace</DialogTitle>
              <DialogDescription>A shared space for a team: its own servers, members and chats.</DialogDescription>
            </DialogHeader>
            <div>
              <Label htmlFor="new-workspace-name">Name</Label>
              <Input
                id="new-workspace-name"
                name="name"
                aria-label="New workspace name"
                placeholder="Team name"
                required
                maxLength={80}
                aria-invalid={!!error}
              />
              {error && <FieldError>{error}</FieldError>}
            </div>
            <DialogFooter>
              <Button variant="secondary" onClick={() => setCreating(false)}>
                Cancel
              </Button>
              <Button type="submit">Create</Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
      <nav
        className="col-span-3 row-start-2 flex min-w-0 gap-3 overflow-x-auto text-sm md:col-span-1 md:row-start-auto md:gap-4"
        aria-label="Main"
      >
        {SECTIONS.map((item) => (
          <Link
            key={item.path}
            href={`/w/${encodeURIComponent(slug)}/${item.href ?? item.path}`}
            aria-current={current === item.path ? "page" : undefined}
            className={linkClass(current === item.path)}
          >
            {item.label}
          </Link>
        ))}
        {/* The account (password, sign out of all devices) is the person's, not the workspace's. */}
        <Link href="/account" aria-current={current === "account" ? "page" : undefined} className={linkClass(current === "account")}>
          Account
        </Link>
        {isAdmin && (
          <Link
            href="/admin"
            aria-current={current === "admin" && !onCatalog ? "page" : undefined}
            className={linkClass(current === "admin" && !onCatalog)}
          >
            Admin
          </Link>
        )}
        {isAdmin && (
          <Link href="/admin/catalog" aria-current={onCatalog ? "page" : undefined} className={linkClass(onCatalog)}>
            Catalog
          </Link>
        )}
      </nav>
    </>
  );
}
