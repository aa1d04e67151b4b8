-- The personal access token check is cached under the change stamp (lib/auth/personal-tokens.ts), so
-- writes to personal_tokens notify like 0012's tables: a token made, revoked or deleted empties every
-- process's caches. last_used_at moves on use (at most once a minute per token) and decides nothing a
-- cache keeps, so an update of that column alone sends nothing. Postgres only: SQLite's data_version does this job there.
CREATE TRIGGER personal_tokens_notify_change AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF user_id, workspace_id, name, scopes, token_hash, hint, expires_at, revoked_at ON "personal_tokens" FOR EACH STATEMENT EXECUTE FUNCTION switchboard_notify_change();
