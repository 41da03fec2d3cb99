package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migrations bring a PostgreSQL store's schema from one version to the next. They only ever
// grow: a released migration is never edited, a change is a new one. eos_schema records each
// one applied, so every replica agrees on the version and an older Eos refuses a newer schema.
var migrations = []migrationStep{
	{1, "buckets of JSON values and their sequences", `
CREATE TABLE eos_kv (
	bucket text  NOT NULL,
	k      bytea NOT NULL,
	v      bytea NOT NULL,
	PRIMARY KEY (bucket, k)
);
CREATE TABLE eos_seq (
	bucket text   PRIMARY KEY,
	n      bigint NOT NULL
);`},
	// Plans keep their body in bucket plan_bodies (planbody.go). The tables do not change, but
	// an Eos from before reads such a plan without its spec, so it must refuse this schema.
	{2, "plans keep their body apart", `
COMMENT ON TABLE eos_kv IS 'Eos store: buckets of JSON values; a plan''s body is in bucket plan_bodies';`},
}

type migrationStep struct {
	version int
	name    string
	sql     string
}

// migrationLock is the advisory lock replicas starting together take, so one migrates and
// the others wait and find the schema ready.
const migrationLock = 0x656f732d6d6967 // "eos-mig"

// SchemaVersion is the schema this Eos writes.
func SchemaVersion() int { return migrations[len(migrations)-1].version }

func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
			return fmt.Errorf("store schema: waiting for the migration lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS eos_schema (
			version    int         PRIMARY KEY,
			name       text        NOT NULL,
			applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
			return fmt.Errorf("store schema: creating eos_schema: %w", err)
		}
		var have int
		if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM eos_schema").Scan(&have); err != nil {
			return fmt.Errorf("store schema: reading its version: %w", err)
		}
		if have > SchemaVersion() {
			return fmt.Errorf("store schema is version %d, newer than this Eos knows (%d): run the newer Eos, or restore the database", have, SchemaVersion())
		}
		for _, m := range migrations {
			if m.version <= have {
				continue
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("store schema: migration %d (%s): %w", m.version, m.name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO eos_schema (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
				return fmt.Errorf("store schema: recording migration %d: %w", m.version, err)
			}
		}
		return nil
	})
}
