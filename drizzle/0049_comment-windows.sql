CREATE TABLE "post_comment_counts" (
	"days" smallint NOT NULL,
	"post_id" uuid NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "post_comment_counts_days_post_id_pk" PRIMARY KEY("days","post_id")
);
--> statement-breakpoint
CREATE TABLE "post_comment_windows" (
	"days" smallint PRIMARY KEY NOT NULL,
	"since" date NOT NULL
);
--> statement-breakpoint
CREATE INDEX "post_comment_counts_top_idx" ON "post_comment_counts" USING btree ("days","n" DESC NULLS FIRST,"post_id");