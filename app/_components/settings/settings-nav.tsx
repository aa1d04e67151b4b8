"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "../ui/primitives/cn";

/** The sections of Settings, each a page of its own under `/w/<slug>/settings/`. */
export const SETTINGS_SECTIONS = [
  { path: "account", label: "Account" },
  { path: "model", label: "Model" },
  { path: "workspace", label: "Workspace" },
  { path: "audit", label: "Audit" },
  { path: "usage", label: "Usage" },
] as const;

/** Tabs-like links to the sections of Settings; the open one is marked `aria-current="page"`. */
export function SettingsNav({ slug }: { slug: string }) {
  const pathname = usePathname();
  const current = pathname.split("/settings/")[1]?.split("/")[0];
  return (
    <nav aria-label="Settings sections" className="-mx-1 flex flex-wrap gap-1 border-b border-border pb-2 text-sm">
      {SETTINGS_SECTIONS.map((section) => (
        <Link
          key={section.path}
          href={`/w/${encodeURIComponent(slug)}/settings/${section.path}`}
          aria-current={current === section.path ? "page" : undefined}
          className={cn(
            "rounded-md px-3 py-1.5 font-medium text-muted-foreground hover:bg-muted hover:text-foreground",
            current === section.path && "bg-muted text-foreground",
          )}
        >
          {section.label}
        </Link>
      ))}
    </nav>
  );
}
