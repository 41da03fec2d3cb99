// Package browsertest drives a real headless Chromium (Debian's chromium, which
// scripts/testenv/chromium.sh installs) for the tests of the status page: start it, act in a
// tab, wait for a condition in the page, and write screenshots where a reviewer finds them.
// Only tests import it.
package browsertest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is where Debian's chromium package puts the browser.
const ChromiumPath = "/usr/bin/chromium"

// Start starts a fresh headless Chromium for t (its own empty profile, no network of its
// own) and returns a tab's context. Without Chromium the test skips, except under CI, where
// a missing browser fails it. extra are more options (a flag such as host-resolver-rules).
func Start(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path := ChromiumPath
	if _, err := os.Stat(path); err != nil {
		if p, err := exec.LookPath("chromium"); err == nil {
			path = p
		} else if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and there is no %s: run scripts/testenv/chromium.sh build", ChromiumPath)
		} else {
			t.Skipf("no %s (scripts/testenv/chromium.sh build installs it)", ChromiumPath)
		}
	}
	// The flags keep Chromium off the network it would otherwise reach for at every start
	// (updates, sync, QUIC probes): this machine's closed network refuses them by the dozen.
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
	}
	opts = append(opts, extra...)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// ScreenshotDir is where the browser tests write a PNG of every page they see: the directory
// in EOS_SCREENSHOTS, else screenshots/ at the top of the repository.
func ScreenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("EOS_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(moduleRoot(t), "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// moduleRoot is the nearest directory above the test's own that holds go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// Shot writes a full-page PNG named after the test (without its "Test" and "Browser"
// prefixes) and name, and returns its path.
func Shot(t *testing.T, ctx context.Context, name string) string {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	test := strings.TrimPrefix(strings.TrimPrefix(t.Name(), "Test"), "Browser")
	file := filepath.Join(ScreenshotDir(t), strings.ReplaceAll(test, "/", "-")+"-"+name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// Do runs actions in the tab, failing the test with what was being done.
func Do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// Eval evaluates a JavaScript expression in the tab.
func Eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// WaitFor waits, up to timeout, until a JavaScript expression is true in the tab.
func WaitFor(t *testing.T, ctx context.Context, what, expr string, timeout time.Duration) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(timeout))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// Mark sets a window variable that survives only as long as the page is not reloaded or
// left; AssertNotReloaded checks it is still there.
func Mark(t *testing.T, ctx context.Context) {
	t.Helper()
	Eval[chromedp.Void](t, ctx, "window.eosNoReload = 42")
}

// AssertNotReloaded fails t when the page was reloaded or left since Mark.
func AssertNotReloaded(t *testing.T, ctx context.Context) {
	t.Helper()
	if v := Eval[int](t, ctx, "window.eosNoReload || 0"); v != 42 {
		t.Error("the page was reloaded or left: the marker set on it is gone")
	}
}
