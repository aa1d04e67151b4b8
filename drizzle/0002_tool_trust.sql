CREATE TABLE `server_trust` (
	`server_id` text PRIMARY KEY NOT NULL,
	`trusted` integer DEFAULT false NOT NULL,
	`trifecta_check` integer DEFAULT true NOT NULL,
	`pinned_at` integer,
	`updated_by` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `tool_pins` (
	`server_id` text NOT NULL,
	`tool_name` text NOT NULL,
	`state` text NOT NULL,
	`approved_hash` text,
	`approved_definition` text,
	`current_hash` text NOT NULL,
	`current_definition` text NOT NULL,
	`approved_by` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`server_id`, `tool_name`),
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`approved_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `workspace_tool_policies` (
	`server_id` text NOT NULL,
	`tool_name` text NOT NULL,
	`policy` text NOT NULL,
	`updated_by` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`server_id`, `tool_name`),
	FOREIGN KEY (`server_id`) REFERENCES `mcp_servers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
