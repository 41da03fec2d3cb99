package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// layer_timeout bounds every layer's apply; without it a stuck layer is still bounded, by
// the runner's default.
func TestLayerTimeoutReachesTheRunner(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for _, c := range []struct {
		text string
		want time.Duration
	}{
		{``, 30 * time.Minute},
		{`layer_timeout = "45m"`, 45 * time.Minute},
	} {
		cfg, err := loadConfig(writeTemp(t, c.text))
		if err != nil {
			t.Fatal(err)
		}
		cfg.DataDir = t.TempDir()
		r, err := newRunner(context.Background(), cfg, log, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.LayerTimeout(); got != c.want {
			t.Errorf("%q: layer timeout %s, want %s", c.text, got, c.want)
		}
	}
	cfg, err := loadConfig(writeTemp(t, `layer_timeout = "soon"`))
	if err != nil {
		t.Fatal(err)
	}
	cfg.DataDir = t.TempDir()
	if _, err := newRunner(context.Background(), cfg, log, nil); err == nil || !strings.Contains(err.Error(), "layer_timeout") {
		t.Errorf("layer_timeout = \"soon\" gave %v, want an error naming it", err)
	}
}
