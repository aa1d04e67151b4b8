ALTER TABLE `workspace_settings` ADD `tool_search_threshold` integer;--> statement-breakpoint
ALTER TABLE `workspace_settings` ADD `tool_search_max_tokens` integer;--> statement-breakpoint
ALTER TABLE `workspace_settings` ADD `always_loaded_tools` text;