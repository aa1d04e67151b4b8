-- The chat turn's settings are cached under the change stamp too (docs/performance.md#what-is-cached-and-why-it-is-safe):
-- a member's own model, the workspace's default model, tool-search and catalog settings, and the usage
-- budgets. Writes to their tables notify like 0012's, so a changed model or budget empties every
-- process's caches. Postgres only: SQLite's data_version does this job there.
CREATE TRIGGER user_settings_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "user_settings" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER workspace_settings_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspace_settings" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER usage_budgets_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "usage_budgets" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
