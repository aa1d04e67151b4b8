DROP INDEX `usage_mcp_ws_at_idx`;--> statement-breakpoint
DROP INDEX `usage_mcp_user_at_idx`;--> statement-breakpoint
DROP INDEX `usage_model_ws_at_idx`;--> statement-breakpoint
DROP INDEX `usage_model_user_at_idx`;