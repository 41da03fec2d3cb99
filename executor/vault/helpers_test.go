package vault

import (
	"bytes"
	"context"
	"crypto/rand"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/vault/api"
)

// liveVault returns the address and root token of the dev server scripts/testenv/vault.sh
// started (EOS_TEST_VAULT_ADDR, EOS_TEST_VAULT_TOKEN). Without one the test skips, except in
// CI, where a missing server must fail rather than pass silently.
func liveVault(t *testing.T) (addr, token string) {
	t.Helper()
	addr, token = os.Getenv("EOS_TEST_VAULT_ADDR"), os.Getenv("EOS_TEST_VAULT_TOKEN")
	if addr == "" || token == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("EOS_TEST_VAULT_ADDR and EOS_TEST_VAULT_TOKEN are required in CI (scripts/testenv/vault.sh start)")
		}
		t.Skip("no Vault dev server: run scripts/testenv/vault.sh start DIR and source DIR/env")
	}
	return addr, token
}

// rootClient is a plain API client with the root token, for the test's own reads and setup.
func rootClient(t *testing.T) *api.Client {
	t.Helper()
	addr, token := liveVault(t)
	cfg := api.DefaultConfig()
	cfg.Address = addr
	c, err := api.NewClient(cfg)
	if err != nil {
		t.Fatalf("api client: %v", err)
	}
	c.SetToken(token)
	return c
}

// uniqueEnv returns an environment name no other test (or earlier run against the same
// server) uses, so tests never see each other's secrets.
func uniqueEnv(t *testing.T) string {
	return "t" + strings.ToLower(rand.Text()[:10])
}

// logSink captures a Store's log output and lets a test wait for a line.
type logSink struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func newLogSink() *logSink { return &logSink{lines: make(chan string, 256)} }

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.lines <- string(p):
	default:
	}
	return l.buf.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logSink) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// waitFor waits for a log line containing want.
func (l *logSink) waitFor(t *testing.T, want string, within time.Duration) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case line := <-l.lines:
			if strings.Contains(line, want) {
				return
			}
		case <-deadline:
			t.Fatalf("no log line with %q within %s; log:\n%s", want, within, l.String())
		}
	}
}

// newStore connects to the live server with the root token (or cfg's credentials).
func newStore(t *testing.T, cfg Config) *Store {
	t.Helper()
	addr, token := liveVault(t)
	if cfg.Address == "" {
		cfg.Address = addr
	}
	if cfg.Token == "" && cfg.AppRole == nil {
		cfg.Token = token
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := New(ctx, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// readKey reads one key of an entry straight from Vault.
func readKey(t *testing.T, c *api.Client, entry, key string) string {
	t.Helper()
	sec, err := c.KVv2("secret").Get(context.Background(), entry)
	if err != nil {
		t.Fatalf("reading %s: %v", entry, err)
	}
	v, _ := sec.Data[key].(string)
	return v
}

// entryVersion is an entry's latest version number.
func entryVersion(t *testing.T, c *api.Client, entry string) int {
	t.Helper()
	m, err := c.KVv2("secret").GetMetadata(context.Background(), entry)
	if err != nil {
		t.Fatalf("reading the metadata of %s: %v", entry, err)
	}
	return m.CurrentVersion
}
