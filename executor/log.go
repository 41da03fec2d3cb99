package executor

import (
	"context"
	"log/slog"
)

type logKey struct{}

// WithLog returns ctx carrying l, so the layers log with the caller's attributes (the
// conversation's correlation id, the plan id) on every line.
func WithLog(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, logKey{}, l)
}

// Log returns the logger ctx carries, or fallback.
func Log(ctx context.Context, fallback *slog.Logger) *slog.Logger {
	if l, ok := ctx.Value(logKey{}).(*slog.Logger); ok && l != nil {
		return l
	}
	return fallback
}
