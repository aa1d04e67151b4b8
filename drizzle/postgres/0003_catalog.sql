CREATE TABLE "catalog_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"registry_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"status_message" text,
	"pinned_version" text,
	"visibility" text DEFAULT 'admins' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_entries_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "catalog_entry_workspaces" (
	"entry_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	CONSTRAINT "catalog_entry_workspaces_entry_id_workspace_id_pk" PRIMARY KEY("entry_id","workspace_id")
);
--> statement-breakpoint
CREATE TABLE "catalog_registries" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"mode" text DEFAULT 'chosen' NOT NULL,
	"filter" text,
	"synced_at" timestamp (3) with time zone,
	"last_report" json,
	"created_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_registries_url_unique" UNIQUE("url")
);
--> statement-breakpoint
CREATE TABLE "catalog_versions" (
	"id" text PRIMARY KEY NOT NULL,
	"entry_id" text NOT NULL,
	"version" text NOT NULL,
	"server_json" json NOT NULL,
	"is_latest" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"published_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalog_entries" ADD CONSTRAINT "catalog_entries_registry_id_catalog_registries_id_fk" FOREIGN KEY ("registry_id") REFERENCES "public"."catalog_registries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_entry_workspaces" ADD CONSTRAINT "catalog_entry_workspaces_entry_id_catalog_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."catalog_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_entry_workspaces" ADD CONSTRAINT "catalog_entry_workspaces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_registries" ADD CONSTRAINT "catalog_registries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalog_versions" ADD CONSTRAINT "catalog_versions_entry_id_catalog_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."catalog_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalog_entry_workspaces_ws_idx" ON "catalog_entry_workspaces" USING btree ("workspace_id");--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_versions_entry_version_idx" ON "catalog_versions" USING btree ("entry_id","version");