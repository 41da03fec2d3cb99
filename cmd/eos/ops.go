package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// serveOps serves /healthz and /metrics on addr until the returned stop is called.
func serveOps(ctx context.Context, addr string, a *app, log *slog.Logger) (stop func(), err error) {
	if addr == "off" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening for /healthz and /metrics on %s: %w (set listen or EOS_LISTEN, or \"off\")", addr, err)
	}
	srv := &http.Server{Handler: a.engine.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("operations endpoint stopped", "err", err)
		}
	}()
	log.Info("operations endpoints", "healthz", "http://"+ln.Addr().String()+"/healthz", "metrics", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}, nil
}
