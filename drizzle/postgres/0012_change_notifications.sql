-- Change notifications for the lookup caches of every process (db/changes-postgres.ts): each statement
-- writing a table those caches read sends NOTIFY switchboard_changes, which Postgres delivers when its
-- transaction commits (never on rollback; repeats within one transaction are folded). Postgres only:
-- SQLite's data_version does this job there.
CREATE OR REPLACE FUNCTION switchboard_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_changes', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER workspaces_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspaces" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER memberships_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER mcp_servers_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "mcp_servers" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER server_credentials_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "server_credentials" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER tool_pins_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tool_pins" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER tool_policies_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tool_policies" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER workspace_tool_policies_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "workspace_tool_policies" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
CREATE TRIGGER server_trust_notify_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "server_trust" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
--> statement-breakpoint
-- A session's last_seen_at moves on requests and decides nothing a cache keeps (idle time is checked on every request).
CREATE TRIGGER sessions_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF user_id, expires_at, ended_at, authenticated_at ON "sessions" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
