// Package eostest is the test harness for conversations with Eos: a real engine wired to the
// console adapter through a pipe, a real bbolt file and real Terraform working directories
// in t.TempDir(), and helpers that wait for the bot to answer, with a deadline; and what the
// engine's unit tests (bot) and its end-to-end and conformance tests (bot/e2e) share: asking
// for a preview, finding the real test servers (skipping without one unless CI is set),
// fixtures such as a policy set or a full disk.
package eostest

import (
	"context"
	"fmt"
	"github.com/eosbot/eos/bot/webapi"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/bot/policy/rego"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/executor/terraform"
)

// Timeout is how long a helper waits for the bot before failing the test.
var Timeout = 2 * time.Minute

// Options change the harness; the zero value is the embedded default.
type Options struct {
	// DataDir is reused when set (to restart a bot on the same store); default t.TempDir().
	DataDir string
	// Policy is the approval policy; zero means bot.DefaultPolicy().
	Policy bot.Policy
	// DefaultEnv is the environment of requests that name none (default "local").
	DefaultEnv string
	// Environments are the declared environments, besides DefaultEnv and those Policy names.
	Environments []string
	// Clock, when set, is the engine's clock.
	Clock *Clock
	// Rollback is the runner's rollback policy.
	Rollback executor.RollbackPolicy
	// Delay slows every simulated-cloud operation down (EOSLAB_DELAY), to catch a run applying.
	Delay time.Duration
	// FailOn names simulated-cloud objects whose create or update fails (EOSLAB_FAIL_ON).
	FailOn []string
	// Digests are scheduled drift digests (post them to Platform "console", Channel "local").
	Digests []bot.Digest
	// Secrets is the secrets store (Vault in end-to-end tests); nil means not configured.
	Secrets executor.Secrets
	// SecretsPath is what refusals say about where secrets live.
	SecretsPath string
	// Adapters run beside the console (a Mattermost adapter in end-to-end tests).
	Adapters []adapters.Adapter
	// Layers run beside Terraform (a Nomad layer on the test agent in end-to-end tests).
	Layers []executor.Layer
	// CatalogDirs are operator blueprint folders (each holding blueprint folders), loaded
	// after the embedded catalog.
	CatalogDirs []string
	// OpsChannels see the plans of every channel ("platform:channel").
	OpsChannels []string
	// ConsoleGroups are the console's user groups, for "group:NAME" in Policy.
	ConsoleGroups map[string][]string
	// PolicyCode is the policy as code in force (bot/policy/rego), nil for none.
	PolicyCode *rego.Set
	// Leader, when set, is the engine's leadership (replicas sharing a store).
	Leader bot.Leadership
	// Web is the status page's configuration (links in previews, `@eos web`).
	Web webapi.WebConfig
}

// Harness is a running bot and the console it listens to.
type Harness struct {
	t       testing.TB
	Engine  *bot.Engine
	Console *console.Adapter
	Store   *store.Store
	DataDir string
	Log     *strings.Builder
	// Terraform is the harness's Terraform layer (eoslab), for tests that call it directly.
	Terraform executor.Layer

	logw   *syncWriter
	in     *io.PipeWriter
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

// New starts a bot on the console. It is stopped when the test ends.
func New(t testing.TB, opts Options) *Harness {
	t.Helper()
	if opts.DataDir == "" {
		opts.DataDir = t.TempDir()
	}
	sources := []catalog.Source{catalog.Embedded()}
	for _, d := range opts.CatalogDirs {
		sources = append(sources, catalog.Dir(d))
	}
	cat, err := catalog.Load(sources...)
	if err != nil {
		t.Fatalf("loading the catalog: %v", err)
	}
	logs := &strings.Builder{}
	logw := &syncWriter{w: logs}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelDebug}))
	env := map[string]string{"EOSLAB_ROOT": filepath.Join(opts.DataDir, "cloud")}
	if opts.Delay > 0 {
		env["EOSLAB_DELAY"] = opts.Delay.String()
	}
	if len(opts.FailOn) > 0 {
		env["EOSLAB_FAIL_ON"] = strings.Join(opts.FailOn, ",")
	}
	tf, err := terraform.New(terraform.Config{
		WorkDir:        filepath.Join(opts.DataDir, "terraform"),
		CLIConfigFile:  filepath.Join(opts.DataDir, "terraform.rc"),
		PluginCacheDir: filepath.Join(opts.DataDir, "plugins"),
		Mirror:         Mirror(t),
		MirrorInclude:  []string{"registry.terraform.io/eos/*"},
		Env:            env,
		Logger:         log,
	})
	if err != nil {
		t.Fatalf("terraform layer: %v", err)
	}
	runner, err := executor.NewRunner(executor.RunnerConfig{Layers: append([]executor.Layer{tf}, opts.Layers...), Rollback: opts.Rollback, Secrets: opts.Secrets})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(opts.DataDir, "eos.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	cfg := bot.Config{Catalog: cat, Runner: runner, Store: st, Policy: opts.Policy, DefaultEnv: opts.DefaultEnv, Environments: opts.Environments,
		ProgressInterval: 10 * time.Millisecond, Logger: log, Digests: opts.Digests, SecretsPath: opts.SecretsPath, OpsChannels: opts.OpsChannels,
		Leader: opts.Leader, Web: opts.Web, PolicyCode: opts.PolicyCode, WorkDirs: []string{opts.DataDir, filepath.Join(opts.DataDir, "terraform")}}
	if opts.Clock != nil {
		cfg.Now = opts.Clock.Now
	}
	engine, err := bot.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	transcript := io.Discard
	if testing.Verbose() {
		transcript = os.Stdout
	}
	con := console.New(console.Config{In: r, Out: transcript, Echo: true, Idle: engine.Wait, Groups: opts.ConsoleGroups})
	ctx, cancel := context.WithCancel(context.Background())
	h := &Harness{t: t, Engine: engine, Console: con, Store: st, DataDir: opts.DataDir, Log: logs, logw: logw, Terraform: tf, in: w, cancel: cancel, done: make(chan error, 1)}
	go func() { h.done <- engine.Run(ctx, append([]adapters.Adapter{con}, opts.Adapters...)...) }()
	t.Cleanup(h.Stop)
	select {
	case <-engine.Ready():
	case err := <-h.done:
		t.Fatalf("engine stopped before it was ready: %v", err)
	}
	return h
}

// Cloud is the simulated cloud's directory: ROOT/<type>/<name>.json per object.
func (h *Harness) Cloud() string { return filepath.Join(h.DataDir, "cloud") }

var (
	mirrorOnce sync.Once
	mirrorDir  string
	mirrorErr  error
)

// Mirror is the eoslab provider mirror: EOS_TEST_PROVIDER_MIRROR (make test builds it), or
// one built now into the cache by the project's script (fast when the version is cached).
func Mirror(t testing.TB) string {
	t.Helper()
	mirrorOnce.Do(func() {
		if d := os.Getenv("EOS_TEST_PROVIDER_MIRROR"); d != "" {
			mirrorDir = d
			return
		}
		root, err := repoRoot()
		if err != nil {
			mirrorErr = err
			return
		}
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		mirrorDir = filepath.Join(cache, "eos", "providers")
		cmd := exec.Command(filepath.Join(root, "scripts", "eoslab-mirror.sh"), mirrorDir)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			mirrorErr = fmt.Errorf("building the eoslab provider mirror: %v\n%s", err, out)
		}
	})
	if mirrorErr != nil {
		t.Fatal(mirrorErr)
	}
	return mirrorDir
}

// repoRoot finds the directory holding go.mod, upwards from the test's directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test directory")
		}
		dir = parent
	}
}

// Stop ends the input, waits for the bot to finish what it started and closes the store.
func (h *Harness) Stop() {
	h.once.Do(func() {
		h.in.Close()
		select {
		case err := <-h.done:
			if err != nil {
				h.t.Errorf("engine stopped with: %v", err)
			}
		case <-time.After(Timeout):
			h.t.Errorf("engine did not stop within %s", Timeout)
			h.cancel()
		}
		h.cancel()
		h.Store.Close()
	})
}

func (h *Harness) line(s string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, s+"\n"); err != nil {
		h.t.Fatalf("writing to the console: %v", err)
	}
}

// Type writes lines to the console from another goroutine and reports the outcome on the
// channel, without failing the test: for a test that must go on when the bot does not read
// (an adapter whose loop waits for a handler cannot even take the next line).
func (h *Harness) Type(lines ...string) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := io.WriteString(h.in, strings.Join(lines, "\n")+"\n")
		done <- err
	}()
	return done
}

// Say posts text as user.
func (h *Harness) Say(user, text string) {
	h.t.Helper()
	h.line("/as " + user)
	h.line(text)
}

// Reply posts text as user in the thread of post id (/reply).
func (h *Harness) Reply(user string, post int, text string) {
	h.t.Helper()
	h.line("/as " + user)
	h.line(fmt.Sprintf("/reply %d %s", post, text))
}

// React adds user's emoji to post id.
func (h *Harness) React(user string, post int, emoji string) {
	h.t.Helper()
	h.line("/as " + user)
	h.line(fmt.Sprintf("/react %d %s", post, emoji))
}

// Unreact removes user's emoji from post id.
func (h *Harness) Unreact(user string, post int, emoji string) {
	h.t.Helper()
	h.line("/as " + user)
	h.line(fmt.Sprintf("/unreact %d %s", post, emoji))
}

// Edit replaces the text of post id as user (/edit), as a person editing their message.
func (h *Harness) Edit(user string, post int, text string) {
	h.t.Helper()
	h.line("/as " + user)
	h.line(fmt.Sprintf("/edit %d %s", post, text))
}

// Delete deletes post id as user (/delete).
func (h *Harness) Delete(user string, post int) {
	h.t.Helper()
	h.line("/as " + user)
	h.line(fmt.Sprintf("/delete %d", post))
}

// Idle waits until every run the bot started has finished.
func (h *Harness) Idle() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if err := h.Engine.Wait(ctx); err != nil {
		h.t.Fatalf("bot still busy after %s", Timeout)
	}
}

// WaitPost waits for a bot post, after post number after, for which match holds.
func (h *Harness) WaitPost(after int, match func(console.Post) bool) console.Post {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	var found console.Post
	_, err := h.Console.WaitFor(ctx, func(posts []console.Post) bool {
		for _, p := range posts {
			if p.ID > after && p.Author == "eos" && match(p) {
				found = p
				return true
			}
		}
		return false
	})
	if err != nil {
		h.t.Fatalf("waiting for the bot: %v\nlogs:\n%s", err, h.Log.String())
	}
	return found
}

// WaitText waits for a bot post after post number after that contains every one of texts.
func (h *Harness) WaitText(after int, texts ...string) console.Post {
	h.t.Helper()
	return h.WaitPost(after, func(p console.Post) bool {
		for _, s := range texts {
			if !strings.Contains(p.Text, s) {
				return false
			}
		}
		return true
	})
}

// WaitLog waits until the engine's log holds text: for what the engine does without a word
// in chat (a background wait that ends).
func (h *Harness) WaitLog(text string) {
	h.t.Helper()
	deadline := time.Now().Add(Timeout)
	for {
		h.logw.mu.Lock()
		found := strings.Contains(h.Log.String(), text)
		h.logw.mu.Unlock()
		if found {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the log did not say %q within %s", text, Timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Last is the number of the latest post.
func (h *Harness) Last() int { return len(h.Console.Posts()) }

// Clock is a settable clock for expiry tests.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock starts a clock at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now reads the clock.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Advance moves the clock forward.
func (c *Clock) Advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
