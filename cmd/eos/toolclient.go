package main

// How eos audit, eos export and eos plan reach the store: through the Eos that holds the bbolt
// file when one answers on its socket (toolsock.go), else by opening the store themselves. What
// they read is the same data either way, printed and written by the same code.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// toolClient asks the Eos that holds the bbolt store, over its socket.
type toolClient struct {
	socket string
	http   *http.Client
}

func newToolClient(cfg *Config) *toolClient {
	path := toolSocket(cfg)
	dialer := net.Dialer{Timeout: 2 * time.Second}
	return &toolClient{socket: path, http: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return dialer.DialContext(ctx, "unix", path)
		},
	}}}
}

// answering returns a client of the Eos holding the bbolt store when one answers on its
// socket, nil otherwise (no Eos runs, a PostgreSQL store, or a socket left by a dead one).
func answering(ctx context.Context, cfg *Config) *toolClient {
	if cfg.Store.Type != "bbolt" {
		return nil
	}
	c := newToolClient(cfg)
	if c.ping(ctx) != nil {
		return nil
	}
	return c
}

func (c *toolClient) ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var p struct{ PID int }
	return c.do(ctx, http.MethodGet, "/v1/ping", nil, &p)
}

// whenHeld is the second chance after opening the store failed with err: when another process
// holds the bbolt file, it may be an Eos that started answering since. It returns a client of
// that Eos, or the error saying everything that was tried.
func whenHeld(ctx context.Context, cfg *Config, err error) (*toolClient, error) {
	var held *store.HeldError
	if cfg.Store.Type != "bbolt" || !errors.As(err, &held) {
		return nil, err
	}
	c := newToolClient(cfg)
	perr := c.ping(ctx)
	if perr == nil {
		return c, nil
	}
	return nil, fmt.Errorf("opening %s: another process holds it (waited %s), and no Eos answers on %s (%v), "+
		"where eos serve and eos chat answer the tools while they hold the store. "+
		"Another eos audit, export, plan or store migrate holds it only for a moment: try again. "+
		"An Eos older than this one does not answer there: stop it or upgrade it", held.Path, held.Waited, c.socket, perr)
}

func (c *toolClient) do(ctx context.Context, method, path string, body, out any) error {
	var in io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		in = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://eos"+path, in)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		err = ue.Err // the socket's error, without the made-up URL
	}
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return fmt.Errorf("the Eos answering on %s: %s: %s", c.socket, resp.Status, strings.TrimSpace(string(msg)))
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("reading the answer of the Eos on %s: %w", c.socket, err)
	}
	return nil
}

// storeReader is what eos audit and eos export read: the store opened here, or the Eos that
// holds it.
type storeReader struct {
	st  *store.Store
	via *toolClient
}

// openReader asks the Eos holding the bbolt store when one answers, else opens the store.
func openReader(ctx context.Context, cfg *Config) (*storeReader, error) {
	if c := answering(ctx, cfg); c != nil {
		return &storeReader{via: c}, nil
	}
	st, err := openStore(ctx, cfg)
	if err != nil {
		c, err := whenHeld(ctx, cfg, err)
		if err != nil {
			return nil, err
		}
		return &storeReader{via: c}, nil
	}
	return &storeReader{st: st}, nil
}

func (r *storeReader) Close() {
	if r.st != nil {
		r.st.Close()
	}
}

// audit is the audit log, or one service's part of it.
func (r *storeReader) audit(ctx context.Context, service string) ([]store.Entry, error) {
	if r.st != nil {
		return r.st.Audit(ctx, auditFilter(service))
	}
	var entries []store.Entry
	err := r.via.do(ctx, http.MethodGet, "/v1/audit?"+url.Values{"service": {service}}.Encode(), nil, &entries)
	return entries, err
}

// declared is the declared state of every deployed service.
func (r *storeReader) declared(ctx context.Context) ([]*store.Deployed, error) {
	if r.st != nil {
		return r.st.AllDeclared(ctx)
	}
	var all []*store.Deployed
	err := r.via.do(ctx, http.MethodGet, "/v1/declared", nil, &all)
	return all, err
}

// preview is eos plan's answer: from the Eos holding the bbolt store when one answers, else
// from an engine built here on the store (which stores nothing).
func preview(ctx context.Context, cfg *Config, text, user string) (planAnswer, error) {
	c := answering(ctx, cfg)
	if c == nil {
		log, err := newLogger(os.Stderr, "warn")
		if err != nil {
			return planAnswer{}, err
		}
		a, err := build(ctx, cfg, log)
		if err == nil {
			defer a.Close()
			doc, err := a.engine.Preview(ctx, text, user)
			return planAnswer{Text: doc.Plain(), Failed: err != nil}, nil
		}
		if c, err = whenHeld(ctx, cfg, err); err != nil {
			return planAnswer{}, err
		}
	}
	var ans planAnswer
	err := c.do(ctx, http.MethodPost, "/v1/plan", planRequest{Text: text, User: user}, &ans)
	return ans, err
}
