CREATE TABLE `usage_budgets` (
	`scope` text NOT NULL,
	`target_id` text NOT NULL,
	`unit` text NOT NULL,
	`monthly_limit` integer NOT NULL,
	`updated_by` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`scope`, `target_id`)
);
--> statement-breakpoint
CREATE TABLE `usage_daily` (
	`day` text NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`kind` text NOT NULL,
	`group_key` text NOT NULL,
	`name` text NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`errors` integer DEFAULT 0 NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`cost_micros` integer DEFAULT 0 NOT NULL,
	`duration_ms` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `user_id`, `workspace_id`, `kind`, `group_key`, `name`)
);
--> statement-breakpoint
CREATE INDEX `usage_daily_ws_day_idx` ON `usage_daily` (`workspace_id`,`day`);--> statement-breakpoint
CREATE TABLE `usage_latency` (
	`day` text NOT NULL,
	`workspace_id` text NOT NULL,
	`server_id` text NOT NULL,
	`bucket_ms` integer NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `workspace_id`, `server_id`, `bucket_ms`)
);
--> statement-breakpoint
CREATE TABLE `usage_mcp_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`server_id` text NOT NULL,
	`server_name` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`duration_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`bytes_in` integer DEFAULT 0 NOT NULL,
	`bytes_out` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_mcp_ws_at_idx` ON `usage_mcp_requests` (`workspace_id`,`at`);--> statement-breakpoint
CREATE INDEX `usage_mcp_user_at_idx` ON `usage_mcp_requests` (`user_id`,`at`);--> statement-breakpoint
CREATE INDEX `usage_mcp_at_idx` ON `usage_mcp_requests` (`at`);--> statement-breakpoint
CREATE TABLE `usage_model_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`chat_id` text,
	`source` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cached_tokens` integer DEFAULT 0 NOT NULL,
	`reasoning_tokens` integer DEFAULT 0 NOT NULL,
	`cost_micros` integer DEFAULT 0 NOT NULL,
	`latency_ms` integer NOT NULL,
	`outcome` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_model_ws_at_idx` ON `usage_model_requests` (`workspace_id`,`at`);--> statement-breakpoint
CREATE INDEX `usage_model_user_at_idx` ON `usage_model_requests` (`user_id`,`at`);--> statement-breakpoint
CREATE INDEX `usage_model_at_idx` ON `usage_model_requests` (`at`);--> statement-breakpoint
CREATE TABLE `usage_prices` (
	`scope` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`input_micros_per_m` integer NOT NULL,
	`output_micros_per_m` integer NOT NULL,
	`cached_micros_per_m` integer NOT NULL,
	`updated_by` text,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`scope`, `provider`, `model`)
);
