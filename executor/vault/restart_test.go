package vault

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// outage is a TCP front for the real Vault that can be taken down (every connection closed,
// new ones refused) and brought back on the same address, as a Vault restart looks to Eos.
type outage struct {
	t      *testing.T
	addr   string
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func newOutage(t *testing.T, target string) *outage {
	o := &outage{t: t, target: strings.TrimPrefix(target, "http://")}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.addr = ln.Addr().String()
	o.serve(ln)
	t.Cleanup(o.down)
	return o
}

func (o *outage) serve(ln net.Listener) {
	o.mu.Lock()
	o.ln = ln
	o.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", o.target)
			if err != nil {
				c.Close()
				continue
			}
			o.mu.Lock()
			o.conns = append(o.conns, c, b)
			o.mu.Unlock()
			go func() { io.Copy(b, c); b.Close() }()
			go func() { io.Copy(c, b); c.Close() }()
		}
	}()
}

// down refuses new connections and cuts the open ones.
func (o *outage) down() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ln != nil {
		o.ln.Close()
		o.ln = nil
	}
	for _, c := range o.conns {
		c.Close()
	}
	o.conns = nil
}

// up answers again on the same address.
func (o *outage) up() {
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		o.t.Fatalf("listening again on %s: %v", o.addr, err)
	}
	o.serve(ln)
}

// A Vault that restarts while a run writes its secrets is waited for: the write happens once
// it answers again, and the log says Eos is retrying. Before, the run failed at the first
// refused connection.
func TestSecretsWaitForAVaultThatRestarts(t *testing.T) {
	addr, _ := liveVault(t)
	o := newOutage(t, addr)
	logs := newLogSink()
	s := newStore(t, Config{Address: "http://" + o.addr, Logger: logs.logger()})
	s.backoff = executor.Backoff{Min: 10 * time.Millisecond, Max: 50 * time.Millisecond}
	env := uniqueEnv(t)
	spec := executor.Spec{Env: env, Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}}

	o.down()
	type result struct {
		sp  executor.SecretPlan
		err error
	}
	done := make(chan result, 1)
	go func() {
		sp, err := s.EnsureSecrets(context.Background(), spec)
		done <- result{sp, err}
	}()
	deadline := time.After(30 * time.Second)
	for waiting := true; waiting; {
		select {
		case line := <-logs.lines:
			waiting = !strings.Contains(line, "Vault not answering, retrying")
		case <-deadline:
			t.Fatalf("no retry logged while Vault was down:\n%s", logs.String())
		}
	}
	o.up()
	select {
	case r := <-done:
		if r.err != nil || len(r.sp.Create) != 1 {
			t.Fatalf("EnsureSecrets after Vault came back = %+v, %v; want the secret created", r.sp, r.err)
		}
	case <-deadline:
		t.Fatal("EnsureSecrets did not finish once Vault answered again")
	}
	if v := readKey(t, rootClient(t), "eos/"+env+"/grafana", "admin_password"); v == "" {
		t.Error("the secret is not in Vault")
	}
}

// A Vault that stays away fails the call at the bound, naming Vault and its address.
func TestSecretsGiveUpOnAVaultThatStaysAway(t *testing.T) {
	addr, _ := liveVault(t)
	o := newOutage(t, addr)
	s := newStore(t, Config{Address: "http://" + o.addr})
	s.backoff = executor.Backoff{Min: 10 * time.Millisecond, Max: 50 * time.Millisecond}
	s.runRetry = 5 * time.Second // longer than one attempt: the Vault client retries a refused connection itself first
	o.down()
	_, err := s.EnsureSecrets(context.Background(), executor.Spec{Env: uniqueEnv(t), Units: []executor.Unit{{Service: "grafana", Secrets: []string{"admin_password"}}}})
	if err == nil || !strings.Contains(err.Error(), "Vault at http://"+o.addr+": not answering for") {
		t.Fatalf("err = %v, want Vault not answering, with its address", err)
	}
}
