ALTER TABLE `mcp_servers` ADD `catalog_entry_id` text;--> statement-breakpoint
ALTER TABLE `mcp_servers` ADD `catalog_version` text;