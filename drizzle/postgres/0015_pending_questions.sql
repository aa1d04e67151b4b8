CREATE TABLE "pending_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"workspace_id" text,
	"server_id" text NOT NULL,
	"kind" text NOT NULL,
	"payload_enc" text NOT NULL,
	"replica" text NOT NULL,
	"state" text NOT NULL,
	"reason" text,
	"answer_enc" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"settled_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "pending_questions" ADD CONSTRAINT "pending_questions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_questions" ADD CONSTRAINT "pending_questions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pending_questions_user_idx" ON "pending_questions" USING btree ("user_id","state");--> statement-breakpoint
CREATE INDEX "pending_questions_replica_idx" ON "pending_questions" USING btree ("replica","state");--> statement-breakpoint
CREATE INDEX "pending_questions_expires_idx" ON "pending_questions" USING btree ("expires_at");