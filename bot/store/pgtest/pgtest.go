// Package pgtest gives each test its own PostgreSQL database on the server that
// scripts/testenv/postgres.sh started (EOS_TEST_PG_CONN), dropped when the test ends. Without
// that server the test skips, or fails when CI is set: a test never passes in CI by not running.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Server returns the DSN of the test server's maintenance database.
func Server(t testing.TB) string {
	t.Helper()
	conn := os.Getenv("EOS_TEST_PG_CONN")
	if conn == "" {
		msg := "EOS_TEST_PG_CONN not set; scripts/testenv/postgres.sh start DIR sets it (make test does)"
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set, so this fails rather than skips: " + msg)
		}
		t.Skip(msg)
	}
	return conn
}

// Database creates an empty database for t and returns its DSN; it is dropped (with any
// session still on it) when t ends.
func Database(t testing.TB) string {
	t.Helper()
	admin := Server(t)
	var b [6]byte
	rand.Read(b[:])
	name := "eos_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connecting to the test PostgreSQL: %v", err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("creating database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Logf("dropping database %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("dropping database %s: %v", name, err)
		}
	})
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("EOS_TEST_PG_CONN: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}
