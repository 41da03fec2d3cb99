package salt

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/eosbot/eos/executor"
)

// realSalt is the master, minion and salt-api scripts/testenv/salt.sh started (its
// STATE_DIR/env, exported by scripts/test.sh).
type realSalt struct {
	url, user, password, eauth, minion string
	// data is a directory the minion's states may manage files under; state is salt.sh's
	// STATE_DIR.
	data, state string
}

// needSalt returns the real Salt, or skips the test when none was started; with CI set to
// anything it fails instead, so a CI run cannot pass without having tested against Salt.
func needSalt(t *testing.T) realSalt {
	t.Helper()
	r := realSalt{
		url: os.Getenv("EOS_TEST_SALT_URL"), user: os.Getenv("EOS_TEST_SALT_USER"),
		password: os.Getenv("EOS_TEST_SALT_PASSWORD"), eauth: os.Getenv("EOS_TEST_SALT_EAUTH"),
		minion: os.Getenv("EOS_TEST_SALT_MINION"), data: os.Getenv("EOS_TEST_SALT_DATA"),
		state: os.Getenv("EOS_TEST_SALT_STATE"),
	}
	if r.url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("EOS_TEST_SALT_URL is required in CI: run scripts/test.sh (scripts/testenv/salt.sh)")
		}
		t.Skip("EOS_TEST_SALT_URL not set; scripts/testenv/salt.sh start DIR writes DIR/env")
	}
	return r
}

// layer connects a layer to the real salt-api, targeting the test minion; logs go to buf.
func (r realSalt) layer(t *testing.T, buf *syncBuffer, edit func(*Config)) *Layer {
	t.Helper()
	cfg := Config{URL: r.url, Username: r.user, Password: r.password, EAuth: r.eauth,
		Targets: []string{r.minion}, Timeout: 2 * time.Minute, PollInterval: 200 * time.Millisecond,
		PingTimeout: 5 * time.Second}
	if buf != nil {
		cfg.Logger = slog.New(slog.NewTextHandler(buf, nil))
	}
	if edit != nil {
		edit(&cfg)
	}
	l, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return l
}

// dir is a fresh directory under the minion's data directory for one test's files.
func (r realSalt) dir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp(r.data, "t-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// minionCmd runs `salt.sh minion ACTION STATE_DIR ID`: stops or starts one minion.
func (r realSalt) minionCmd(t *testing.T, action, id string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "scripts", "testenv", "salt.sh")
	out, err := exec.Command(script, "minion", action, r.state, id).CombinedOutput()
	if err != nil {
		t.Fatalf("salt.sh minion %s %s: %v\n%s", action, id, err, out)
	}
}

// forget stops a minion a test started and deletes its key, so that globs match it no more.
func (r realSalt) forget(t *testing.T, l *Layer, id string) {
	t.Helper()
	r.minionCmd(t, "stop", id)
	if _, err := l.api.lowstate(context.Background(), map[string]any{"client": "wheel", "fun": "key.delete", "match": id}); err != nil {
		t.Errorf("deleting %s's key: %v", id, err)
	}
}

// waitMinion polls until id answers test.ping through salt-api, or fails the test.
func (r realSalt) waitMinion(t *testing.T, l *Layer, id string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute) // a minion answers in 5–10 s idle, over a minute on a loaded machine
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		up, _, err := l.ping(ctx, id, "list")
		cancel()
		if err == nil && len(up) == 1 {
			return
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(filepath.Join(r.state, "minion-"+id+".out"))
			if len(out) > 4000 {
				out = out[len(out)-4000:]
			}
			t.Fatalf("minion %s did not answer test.ping within 3m (last error: %v); the end of its log:\n%s", id, err, out)
		}
		time.Sleep(200 * time.Millisecond) // poll interval, not synchronisation
	}
}

// fileSpec is a unit whose state manages two files under dir: a configuration file holding
// the pillar's port, and a marker standing for a volume.
func fileSpec(service, dir string, port int, extra string) executor.Spec {
	text := `{{ pillar['dir'] }}/app.conf:
  file.managed:
    - contents: "port={{ pillar['port'] }}"
    - makedirs: True
{{ pillar['dir'] }}/volume.marker:
  file.managed:
    - contents: volume
` + extra
	return executor.Spec{Verb: "create", Target: service, Env: "local", Units: []executor.Unit{{
		Service: service,
		Salt:    &executor.SaltPart{State: service + ".sls", Text: text, Pillar: map[string]any{"dir": dir, "port": port}},
	}}}
}
