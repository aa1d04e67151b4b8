ALTER TABLE "mcp_servers" ADD COLUMN "catalog_entry_id" text;--> statement-breakpoint
ALTER TABLE "mcp_servers" ADD COLUMN "catalog_version" text;