package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/web"
)

// The engine is what the status page reads; the page never imports it, so the wiring checks.
var (
	_ web.Source    = (*bot.Engine)(nil)
	_ web.OpsViewer = (*bot.Engine)(nil)
)

// listenOps opens the listener of /healthz, /metrics and the status page before the engine
// is built, so that sign-in links can name its address even when the port is chosen by the
// system (":0"). It returns nil for "off".
func listenOps(addr string) (net.Listener, error) {
	if addr == "off" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening for /healthz, /metrics and the status page on %s: %w (set listen or EOS_LISTEN, or \"off\")", addr, err)
	}
	return ln, nil
}

// opsHandler serves /healthz and /metrics from the engine and every other path from the
// status page.
func opsHandler(a *app, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	ops := a.engine.Handler()
	mux.Handle("/healthz", ops)
	mux.Handle("/metrics", ops)
	mux.Handle("/", web.New(web.Config{Engine: a.engine, Logger: log.With("http", "web")}))
	return mux
}

// serveOps serves opsHandler on ln (nil: nothing) until the returned stop is called.
func serveOps(ctx context.Context, ln net.Listener, a *app, log *slog.Logger) (stop func()) {
	if ln == nil {
		return func() {}
	}
	srv := &http.Server{Handler: opsHandler(a, log), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("operations endpoint stopped", "err", err)
		}
	}()
	base := "http://" + ln.Addr().String()
	log.Info("operations endpoints", "healthz", base+"/healthz", "metrics", base+"/metrics", "status_page", base+"/")
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}
}
