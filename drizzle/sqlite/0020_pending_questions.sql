CREATE TABLE `pending_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`workspace_id` text,
	`server_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload_enc` text NOT NULL,
	`replica` text NOT NULL,
	`state` text NOT NULL,
	`reason` text,
	`answer_enc` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	`settled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `pending_questions_user_idx` ON `pending_questions` (`user_id`,`state`);--> statement-breakpoint
CREATE INDEX `pending_questions_replica_idx` ON `pending_questions` (`replica`,`state`);--> statement-breakpoint
CREATE INDEX `pending_questions_expires_idx` ON `pending_questions` (`expires_at`);