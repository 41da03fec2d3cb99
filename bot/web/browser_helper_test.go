package web

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/eosbot/eos/internal/browsertest"
)

// The browser tests drive a real headless Chromium (internal/browsertest) against the page on
// loopback; these are its helpers under short names.

func browser(t *testing.T) context.Context { return browsertest.Start(t) }

func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	browsertest.Shot(t, ctx, name)
}

func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	browsertest.Do(t, ctx, what, actions...)
}

func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	return browsertest.Eval[T](t, ctx, expr)
}

func waitFor(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	browsertest.WaitFor(t, ctx, what, expr, 15*time.Second)
}

func mark(t *testing.T, ctx context.Context) { t.Helper(); browsertest.Mark(t, ctx) }

func assertNotReloaded(t *testing.T, ctx context.Context) {
	t.Helper()
	browsertest.AssertNotReloaded(t, ctx)
}

// signInByLink follows a fresh link in the browser and presses its button.
func signInByLink(t *testing.T, ctx context.Context, f *fixture) {
	t.Helper()
	do(t, ctx, "opening the sign-in link", chromedp.Navigate(f.srv.URL+f.link()), chromedp.WaitVisible("#signin"))
	shot(t, ctx, "signin")
	do(t, ctx, "pressing Sign in", chromedp.Click("#signin"), chromedp.WaitVisible("#who"))
}
