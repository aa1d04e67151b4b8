CREATE TABLE "oauth_server_records" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"model" text NOT NULL,
	"payload_enc" text NOT NULL,
	"grant_id" text,
	"uid_hash" text,
	"user_code_hash" text,
	"user_id" text,
	"client_id" text,
	"expires_at" timestamp (3) with time zone,
	"consumed_at" timestamp (3) with time zone,
	"last_used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_server_records" ADD CONSTRAINT "oauth_server_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_server_records_grant_idx" ON "oauth_server_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_server_records_uid_idx" ON "oauth_server_records" USING btree ("uid_hash");--> statement-breakpoint
CREATE INDEX "oauth_server_records_user_code_idx" ON "oauth_server_records" USING btree ("user_code_hash");--> statement-breakpoint
CREATE INDEX "oauth_server_records_user_idx" ON "oauth_server_records" USING btree ("user_id","model");--> statement-breakpoint
CREATE INDEX "oauth_server_records_expiry_idx" ON "oauth_server_records" USING btree ("expires_at");