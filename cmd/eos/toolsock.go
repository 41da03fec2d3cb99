// The tools' socket: eos audit, eos export and eos plan beside a running Eos.
//
// A bbolt store belongs to one process: while eos serve or eos chat holds it, no other process
// can open it. The process that holds it therefore answers the operator's tools on a Unix socket
// next to the file, <data dir>/eos.sock, with a small HTTP API of exactly what they read:
//
//	GET  /v1/ping                the process's id: someone holds the store and answers
//	GET  /v1/audit?service=NAME  the audit entries (all, or one service's), as JSON
//	GET  /v1/declared            every deployed service's declared state, as JSON
//	POST /v1/plan                {"text", "user"} → {"text": the preview, "failed"}
//	GET  /v1/policy-inputs?since=T  past plans' policy input documents, as JSON lines (policy_replay.go)
//	GET  /v1/handles             the policy's handle pins (policy_handles.go)
//	POST /v1/handles/forget      {"platform", "handle", "by"} → the pin forgotten, audited, and the new one
//
// The tools format and write what they get with the same code as when they open the store
// themselves, so their output is the same either way (toolclient.go).
//
// Why a socket rather than the web listener with a token: the socket is reachable only on this
// machine and only by the account Eos runs as. The file is created 0600 in the data directory
// (which Eos creates 0700), and on Linux the connecting process's user is checked as well
// (toolsock_linux.go). There is no token to issue, store, rotate or leak, and the tools work
// with listen = "off". The web listener may face a network, behind a proxy, where the audit log
// and the declared state must not be one leaked token away.
//
// Nothing here writes but forgetting a handle's pin, which the operator asks for by name and
// the audit log records with the local user who ran the tool. A plan is previewed as `eos plan` always did (Engine.Preview), never
// stored, with no lock a run takes. A layer serialises it with a run on the same unit only
// while it plans, exactly as for a preview asked in chat.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// toolSocket is where the Eos holding the bbolt store answers the tools.
func toolSocket(cfg *Config) string { return filepath.Join(cfg.DataDir, "eos.sock") }

// planRequest and planAnswer are POST /v1/plan's body and answer.
type planRequest struct {
	Text string `json:"text"`
	User string `json:"user"`
}

type planAnswer struct {
	Text   string `json:"text"`   // the preview, as eos plan prints it
	Failed bool   `json:"failed"` // eos plan exits 1
}

// auditFilter keeps the entries eos audit --service asks for (all when service is empty).
func auditFilter(service string) func(*store.Entry) bool {
	return func(e *store.Entry) bool { return service == "" || e.Service == service }
}

// serveTools answers the tools on the socket while this process holds the bbolt store, until
// the returned stop is called (before the store closes). With PostgreSQL the tools open the
// store themselves, and nothing is served.
func serveTools(ctx context.Context, a *app, log *slog.Logger) (stop func()) {
	if a.cfg.replicated() {
		return func() {}
	}
	path := toolSocket(a.cfg)
	warn := func(err error) func() {
		log.Warn("eos audit, export and plan cannot reach this Eos while it runs", "socket", path, "err", err)
		return func() {}
	}
	// This process holds the store, so a socket already here was left by an Eos that died.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return warn(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return warn(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return warn(err)
	}
	srv := &http.Server{Handler: toolsHandler(a), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(peerChecked(ln, log)); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the tools' socket stopped", "socket", path, "err", err)
		}
	}()
	log.Info("eos audit, export and plan ask this Eos", "socket", path)
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close() // a preview still planning is cancelled; the socket file goes either way
		}
	}
}

func toolsHandler(a *app) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/ping", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]int{"pid": os.Getpid()})
	})
	mux.HandleFunc("GET /v1/audit", func(w http.ResponseWriter, r *http.Request) {
		entries, err := a.store.Audit(r.Context(), auditFilter(r.URL.Query().Get("service")))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, entries)
	})
	mux.HandleFunc("GET /v1/declared", func(w http.ResponseWriter, r *http.Request) {
		all, err := a.store.AllDeclared(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, all)
	})
	mux.HandleFunc("GET /v1/policy-inputs", servePolicyInputs(a.store))
	mux.HandleFunc("GET /v1/handles", func(w http.ResponseWriter, r *http.Request) {
		pins, err := a.store.HandlePins(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, pins)
	})
	mux.HandleFunc("POST /v1/handles/forget", func(w http.ResponseWriter, r *http.Request) {
		var req forgetRequest
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<12)).Decode(&req); err != nil || req.Platform == "" || req.Handle == "" {
			http.Error(w, "a forget request is {\"platform\", \"handle\", \"by\"}", http.StatusBadRequest)
			return
		}
		gone, err := a.store.ForgetHandle(r.Context(), req.Platform, req.Handle, forgetEntry(req))
		switch {
		case errors.Is(err, store.ErrNotFound):
			http.Error(w, err.Error(), http.StatusNotFound)
		case err != nil:
			http.Error(w, err.Error(), http.StatusInternalServerError)
		default:
			writeJSON(w, a.repin(r.Context(), *gone))
		}
	})
	mux.HandleFunc("POST /v1/plan", func(w http.ResponseWriter, r *http.Request) {
		var req planRequest
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&req); err != nil {
			http.Error(w, "a plan request is {\"text\", \"user\"}: "+err.Error(), http.StatusBadRequest)
			return
		}
		doc, err := a.engine.Preview(r.Context(), req.Text, req.User)
		writeJSON(w, planAnswer{Text: doc.Plain(), Failed: err != nil})
	})
	return mux
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}
