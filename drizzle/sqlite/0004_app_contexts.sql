CREATE TABLE `app_contexts` (
	`chat_id` text NOT NULL,
	`tool_call_id` text NOT NULL,
	`server_id` text NOT NULL,
	`server_name` text NOT NULL,
	`text` text NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`chat_id`, `tool_call_id`),
	FOREIGN KEY (`chat_id`) REFERENCES `chats`(`id`) ON UPDATE no action ON DELETE cascade
);
