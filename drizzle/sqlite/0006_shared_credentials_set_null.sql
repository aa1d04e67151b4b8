-- mcp_servers.shared_credentials_user_id gets the schema's ON DELETE SET NULL, which 0002's ALTER TABLE ADD
-- left out. SQLite changes a foreign key only by rebuilding the table (sqlite.org/lang_altertable.html,
-- the 12 steps): openDatabase runs migrations with foreign keys off (so the DROP cascades to nothing) and
-- runs PRAGMA foreign_key_check after. Columns keep their order; the rows keep their rowids.
CREATE TABLE `__new_mcp_servers` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`name` text NOT NULL,
	`transport` text NOT NULL,
	`config` text NOT NULL,
	`secrets_enc` text,
	`created_by` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`shared_credentials_user_id` text,
	`member_keys` text,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`shared_credentials_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_mcp_servers` (`rowid`, `id`, `workspace_id`, `name`, `transport`, `config`, `secrets_enc`, `created_by`, `created_at`, `updated_at`, `shared_credentials_user_id`, `member_keys`)
	SELECT `rowid`, `id`, `workspace_id`, `name`, `transport`, `config`, `secrets_enc`, `created_by`, `created_at`, `updated_at`, `shared_credentials_user_id`, `member_keys` FROM `mcp_servers`;
--> statement-breakpoint
DROP TABLE `mcp_servers`;
--> statement-breakpoint
ALTER TABLE `__new_mcp_servers` RENAME TO `mcp_servers`;
--> statement-breakpoint
CREATE UNIQUE INDEX `mcp_servers_workspace_name_idx` ON `mcp_servers` (`workspace_id`,`name`);
