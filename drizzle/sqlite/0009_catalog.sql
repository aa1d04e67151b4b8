CREATE TABLE `catalog_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`source` text NOT NULL,
	`registry_id` text,
	`status` text DEFAULT 'active' NOT NULL,
	`status_message` text,
	`pinned_version` text,
	`visibility` text DEFAULT 'admins' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`registry_id`) REFERENCES `catalog_registries`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_entries_name_unique` ON `catalog_entries` (`name`);--> statement-breakpoint
CREATE TABLE `catalog_entry_workspaces` (
	`entry_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	PRIMARY KEY(`entry_id`, `workspace_id`),
	FOREIGN KEY (`entry_id`) REFERENCES `catalog_entries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `catalog_entry_workspaces_ws_idx` ON `catalog_entry_workspaces` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `catalog_registries` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`mode` text DEFAULT 'chosen' NOT NULL,
	`filter` text,
	`synced_at` integer,
	`last_report` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_registries_url_unique` ON `catalog_registries` (`url`);--> statement-breakpoint
CREATE TABLE `catalog_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`entry_id` text NOT NULL,
	`version` text NOT NULL,
	`server_json` text NOT NULL,
	`is_latest` integer DEFAULT false NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`published_at` integer,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`entry_id`) REFERENCES `catalog_entries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_versions_entry_version_idx` ON `catalog_versions` (`entry_id`,`version`);