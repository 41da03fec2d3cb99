package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/mattermost/mattermost/server/public/model"

	"github.com/eosbot/eos/adapters/mattermost/mmtest"
	"github.com/eosbot/eos/bot/eostest"
)

// Test support for replicas: several `eos serve` processes, each with its own data
// directory, on one PostgreSQL store and one Mattermost channel, as a team would run them.

// privatePostgres starts a PostgreSQL cluster of the test's own (scripts/testenv/postgres.sh),
// so the test may restart it without disturbing other packages' tests; it returns the DSN and
// a function restarting the server.
func privatePostgres(t testing.TB) (dsn string, restart func()) {
	t.Helper()
	if os.Getenv("EOS_TEST_PG_CONN") == "" {
		missing(t, "EOS_TEST_PG_CONN not set: the test environment's PostgreSQL is not running (make test starts it)")
	}
	script, err := filepath.Abs("../../scripts/testenv/postgres.sh")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	if out, err := exec.Command(script, "start", state).CombinedOutput(); err != nil {
		t.Fatalf("starting a private PostgreSQL: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command(script, "stop", state).Run() })
	raw, err := os.ReadFile(filepath.Join(state, "env"))
	if err != nil {
		t.Fatal(err)
	}
	_, v, _ := strings.Cut(strings.TrimSpace(string(raw)), "=")
	return strings.Trim(v, "'"), func() {
		t.Helper()
		if out, err := exec.Command(script, "restart", state).CombinedOutput(); err != nil {
			t.Fatalf("restarting PostgreSQL: %v\n%s", err, out)
		}
	}
}

// replica is one `eos serve` process.
type replica struct {
	name, addr string
	cmd        *exec.Cmd
	log        *syncBuffer
	exited     chan struct{}
	exitErr    error
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// cluster is the replicas and what they share.
type cluster struct {
	t        testing.TB
	bin, dsn string
	root     string
	env      []string
	s        *mmtest.Server
	ch       *model.Channel
	replicas []*replica
}

func newCluster(t testing.TB, dsn string, s *mmtest.Server, ch *model.Channel, n int, extraEnv ...string) *cluster {
	c := &cluster{t: t, bin: eosBinary(t), dsn: dsn, root: t.TempDir(), s: s, ch: ch}
	c.env = append(os.Environ(), "EOS_LOG_LEVEL=info", "EOS_STORE_DSN="+dsn,
		"EOS_TERRAFORM_MIRROR="+eostest.Mirror(t), "EOS_MATTERMOST_TOKEN="+s.BotToken)
	c.env = append(c.env, extraEnv...)
	for i := range n {
		c.replicas = append(c.replicas, &replica{name: fmt.Sprintf("eos%d", i)})
		c.start(i)
	}
	t.Cleanup(func() {
		for _, r := range c.replicas {
			if r.cmd != nil && r.cmd.Process != nil {
				syscall.Kill(-r.cmd.Process.Pid, syscall.SIGCONT)
				syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
				<-r.exited
			}
		}
		if t.Failed() {
			for _, r := range c.replicas {
				t.Logf("--- log of %s:\n%s", r.name, r.log.String())
			}
		}
	})
	return c
}

// restart starts r again after it was killed, as its supervisor would.
func (c *cluster) restart(r *replica) {
	c.t.Helper()
	for i, x := range c.replicas {
		if x == r {
			c.start(i)
			return
		}
	}
	c.t.Fatalf("replica %s is not in the cluster", r.name)
}

// start starts replica i (again, after it exited), and waits for its /healthz.
func (c *cluster) start(i int) *replica {
	t := c.t
	t.Helper()
	r := c.replicas[i]
	if r.cmd != nil && r.alive() {
		t.Fatalf("starting %s again while it runs", r.name)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	ln.Close()
	config := filepath.Join(c.root, r.name+".hcl")
	text := fmt.Sprintf(`data_dir = %q
listen   = %q
terraform { cloud_dir = %q }
mattermost {
  url      = %q
  channels = [%q]
}
`, filepath.Join(c.root, r.name), r.addr, filepath.Join(c.root, "cloud"), c.s.URL, c.s.Team.Name+"/"+c.ch.Name)
	if err := os.WriteFile(config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	previous := ""
	if r.log != nil {
		previous = r.log.String() + "--- restarted ---\n"
	}
	r.log = &syncBuffer{}
	r.log.Write([]byte(previous))
	r.cmd = exec.Command(c.bin, "serve", "--config", config)
	r.cmd.Env = c.env
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	// Its own process group: a kill takes its Terraform with it, as a dying machine would.
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.exited = make(chan struct{})
	go func(cmd *exec.Cmd, done chan struct{}) { r.exitErr = cmd.Wait(); close(done) }(r.cmd, r.exited)
	c.until("replica "+r.name+" answers /healthz", func() bool { _, err := r.health(); return err == nil })
	return r
}

type health struct {
	OK       bool              `json:"ok"`
	Role     string            `json:"role"`
	Adapters map[string]string `json:"adapters"`
}

func (r *replica) health() (health, error) {
	var h health
	client := http.Client{Timeout: 2 * time.Second}
	resp, err := client.Get("http://" + r.addr + "/healthz")
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	return h, json.NewDecoder(resp.Body).Decode(&h)
}

func (r *replica) alive() bool {
	select {
	case <-r.exited:
		return false
	default:
		return true
	}
}

// leader waits until exactly one live replica leads and is connected to Mattermost.
func (c *cluster) leader() *replica {
	c.t.Helper()
	var found *replica
	c.until("one replica leading and connected", func() bool {
		found = nil
		n := 0
		for _, r := range c.replicas {
			if !r.alive() {
				continue
			}
			h, err := r.health()
			if err == nil && h.Role == "leader" {
				n++
				if h.Adapters["mattermost"] == "connected" {
					found = r
				}
			}
		}
		return n == 1 && found != nil
	})
	return found
}

// roles lists each live replica's role.
func (c *cluster) roles() map[string]string {
	out := map[string]string{}
	for _, r := range c.replicas {
		if !r.alive() {
			out[r.name] = "exited"
			continue
		}
		h, err := r.health()
		if err != nil {
			out[r.name] = "unreachable"
			continue
		}
		out[r.name] = h.Role
	}
	return out
}

// kill SIGKILLs r and its Terraform, and waits for it to be gone.
func (c *cluster) kill(r *replica) time.Time {
	if err := syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL); err != nil {
		c.t.Fatal(err)
	}
	at := time.Now()
	<-r.exited
	return at
}

// until polls cond every 50 ms, failing the test after two minutes.
func (c *cluster) until(what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("waiting for %s: not within 2 minutes; roles %v\n%s", what, c.roles(), c.sessions())
		}
		<-tick.C
	}
}

// sessions describes the database's sessions and advisory locks, for a failure message.
func (c *cluster) sessions() string {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.dsn)
	if err != nil {
		return "sessions: " + err.Error()
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT a.pid, coalesce(a.application_name, ''), coalesce(a.state, ''),
		coalesce(now() - a.state_change, '0'::interval)::text, coalesce(a.wait_event, ''), left(coalesce(a.query, ''), 60),
		EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)
		FROM pg_stat_activity a WHERE a.datname = current_database()`)
	if err != nil {
		return "sessions: " + err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	b.WriteString("sessions (pid, application, state, for, wait, query, holds an advisory lock):\n")
	for rows.Next() {
		var pid int
		var app, state, since, wait, query string
		var holds bool
		if err := rows.Scan(&pid, &app, &state, &since, &wait, &query, &holds); err != nil {
			return b.String() + err.Error()
		}
		fmt.Fprintf(&b, "  %d %s %s %s %s %q %t\n", pid, app, state, since, wait, query, holds)
	}
	return b.String()
}

// botPosts lists the bot's posts in root's thread, oldest first.
func (c *cluster) botPosts(root string) []*model.Post {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	posts, err := c.s.Thread(ctx, root)
	if err != nil {
		c.t.Fatal(err)
	}
	var out []*model.Post
	for _, p := range posts {
		if p.UserId == c.s.Bot.Id && p.Id != root {
			out = append(out, p)
		}
	}
	return out
}

// waitBot waits for a bot post in root's thread containing every one of texts.
func (c *cluster) waitBot(root string, texts ...string) *model.Post {
	c.t.Helper()
	return c.s.WaitPost(c.t, root, func(p *model.Post) bool {
		if p.UserId != c.s.Bot.Id {
			return false
		}
		for _, s := range texts {
			if !strings.Contains(p.Message, s) {
				return false
			}
		}
		return true
	})
}
