CREATE TABLE `oauth_server_records` (
	`key_hash` text PRIMARY KEY NOT NULL,
	`model` text NOT NULL,
	`payload_enc` text NOT NULL,
	`grant_id` text,
	`uid_hash` text,
	`user_code_hash` text,
	`user_id` text,
	`client_id` text,
	`expires_at` integer,
	`consumed_at` integer,
	`last_used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_server_records_grant_idx` ON `oauth_server_records` (`grant_id`);--> statement-breakpoint
CREATE INDEX `oauth_server_records_uid_idx` ON `oauth_server_records` (`uid_hash`);--> statement-breakpoint
CREATE INDEX `oauth_server_records_user_code_idx` ON `oauth_server_records` (`user_code_hash`);--> statement-breakpoint
CREATE INDEX `oauth_server_records_user_idx` ON `oauth_server_records` (`user_id`,`model`);--> statement-breakpoint
CREATE INDEX `oauth_server_records_expiry_idx` ON `oauth_server_records` (`expires_at`);