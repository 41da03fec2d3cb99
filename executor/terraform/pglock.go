package terraform

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// pgLockHolder asks PostgreSQL who holds the state lock of workspace. Terraform's pg backend
// locks with advisory locks, which record no lock information: the "Lock Info" in its error is
// the refused command's own. The holder is the session holding the advisory lock on the
// workspace's row of <schema>.states, else the one holding the backend's database-wide
// creation lock (-1), which also refuses other workspaces while it is held. Eos names its
// sessions with application_name (see appName).
func pgLockHolder(ctx context.Context, conn, schema, workspace string) (LockInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	db, err := sql.Open("pgx", conn)
	if err != nil {
		return LockInfo{}, fmt.Errorf("connecting to the pg backend: %w", err)
	}
	defer db.Close()
	// An advisory lock on a bigint key k shows in pg_locks as classid = k >> 32, objid = the low
	// 32 bits, objsubid = 1.
	query := fmt.Sprintf(`
SELECT coalesce(a.application_name, ''), coalesce(a.usename, ''), coalesce(host(a.client_addr), ''), a.backend_start
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
CROSS JOIN LATERAL (SELECT (l.classid::bigint << 32) | l.objid::bigint AS key) k
WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND k.key IN (SELECT id FROM %s.states WHERE name = $1 UNION ALL SELECT -1)
ORDER BY k.key = -1, a.backend_start
LIMIT 1`, pgx.Identifier{schema}.Sanitize())
	var app, user, addr string
	var since time.Time
	err = db.QueryRowContext(ctx, query, workspace).Scan(&app, &user, &addr, &since)
	if errors.Is(err, sql.ErrNoRows) {
		return LockInfo{}, errors.New("no session holds the lock any more")
	}
	if err != nil {
		return LockInfo{}, fmt.Errorf("asking the pg backend who holds the lock: %w", err)
	}
	if op, who, ok := parseAppName(app); ok {
		return LockInfo{Who: who, Operation: op, Created: since}, nil
	}
	li := LockInfo{Who: user, Operation: app, Created: since}
	if addr != "" {
		li.Who += "@" + addr
	}
	return li, nil
}
