package web

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

// The browser tests drive a real headless Chromium (Debian's chromium; scripts/testenv/
// chromium.sh installs it) against the page on loopback.

const chromiumPath = "/usr/bin/chromium"

// browser starts a fresh headless Chromium for t and returns a tab's context. Without
// Chromium the test skips, except under CI, where a missing browser fails it.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath
	if _, err := os.Stat(path); err != nil {
		if p, err := exec.LookPath("chromium"); err == nil {
			path = p
		} else if os.Getenv("CI") != "" {
			t.Fatalf("CI is set and there is no %s: run scripts/testenv/chromium.sh build", chromiumPath)
		} else {
			t.Skipf("no %s (scripts/testenv/chromium.sh build installs it)", chromiumPath)
		}
	}
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
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
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

// screenshotDir is where the browser tests write a PNG of every page they see: the
// directory in EOS_SCREENSHOTS, else screenshots/ at the repository root.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("EOS_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shot writes a full-page PNG named after the test and name.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	file := strings.TrimPrefix(t.Name(), "TestBrowser") + "-" + name + ".png"
	if err := os.WriteFile(filepath.Join(screenshotDir(t), file), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// do runs actions in the tab, failing the test with what was being done.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the tab.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor waits until a JavaScript expression is true in the tab.
func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v", what, err)
	}
}

// signInByLink follows a fresh link in the browser and presses its button.
func signInByLink(t *testing.T, ctx context.Context, f *fixture) {
	t.Helper()
	do(t, ctx, "opening the sign-in link", chromedp.Navigate(f.srv.URL+f.link()), chromedp.WaitVisible("#signin"))
	shot(t, ctx, "signin")
	do(t, ctx, "pressing Sign in", chromedp.Click("#signin"), chromedp.WaitVisible("#who"))
}

// mark sets a window variable that survives only as long as no navigation happens.
func mark(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[chromedp.Void](t, ctx, "window.eosNoReload = 42")
}

func assertNotReloaded(t *testing.T, ctx context.Context) {
	t.Helper()
	if v := eval[int](t, ctx, "window.eosNoReload || 0"); v != 42 {
		t.Error("the page was reloaded or left: the marker set on it is gone")
	}
}
