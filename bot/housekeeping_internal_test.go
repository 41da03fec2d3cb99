package bot

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// Housekeeping that Eos's own stop cuts short is not an error: `eos chat --script` that ends
// soon after start-up logged five "level=ERROR … context canceled" lines before.
func TestHousekeepingCutShortByAStopIsNoError(t *testing.T) {
	var logs strings.Builder
	e := &Engine{log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.logFailure(ctx, "pruning digest posts", context.Canceled)
	if logs.Len() != 0 {
		t.Errorf("a prune cut short by the stop logged: %s", logs.String())
	}
	e.logFailure(context.Background(), "pruning digest posts", errors.New("disk I/O error"))
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "disk I/O error") {
		t.Errorf("a prune that failed while running was not logged as an error: %q", logs.String())
	}
}
