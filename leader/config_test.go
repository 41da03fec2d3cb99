package leader

import (
	"hash/fnv"
	"strings"
	"testing"
	"time"
)

func TestDefaultKeyIsDerivedFromItsName(t *testing.T) {
	h := fnv.New64a()
	h.Write([]byte("eos-leader"))
	if got := int64(h.Sum64()); got != DefaultKey {
		t.Fatalf("FNV-1a of eos-leader is %#x, DefaultKey is %#x", got, DefaultKey)
	}
}

func TestNewFillsDefaults(t *testing.T) {
	c, err := Config{DSN: "postgres://eos@db.example:5432/eos", Lease: 5*time.Second + 300*time.Microsecond}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	if c.Key != DefaultKey || c.Retry != time.Second || c.Heartbeat != time.Second || c.Lease != 5*time.Second || c.Logger == nil {
		t.Fatalf("defaults: key %#x retry %s heartbeat %s lease %s logger %v", c.Key, c.Retry, c.Heartbeat, c.Lease, c.Logger)
	}
}

func TestNewSetsTheServerSideTimeouts(t *testing.T) {
	c, err := Config{DSN: "postgres://eos@db.example/eos?application_name=mine", Lease: 600 * time.Millisecond, Heartbeat: 150 * time.Millisecond, Retry: 50 * time.Millisecond}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	cc, err := c.connConfig()
	if err != nil {
		t.Fatal(err)
	}
	p := cc.RuntimeParams
	want := map[string]string{
		"idle_session_timeout":                "600",
		"idle_in_transaction_session_timeout": "600",
		"tcp_user_timeout":                    "600",
		"tcp_keepalives_idle":                 "1",
		"application_name":                    "mine",
	}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %q, want %q", k, p[k], v)
		}
	}
	if cc.ConnectTimeout != 600*time.Millisecond {
		t.Errorf("connect timeout %s, want the lease", cc.ConnectTimeout)
	}
}

func TestNewRefusesTimingsThatDoNotFit(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no DSN", Config{}, "no DSN"},
		{"bad DSN", Config{DSN: "postgres://eos@db.example:notaport/eos"}, "parsing DSN"},
		{"negative", Config{DSN: "postgres:///eos", Retry: -time.Second}, "negative"},
		{"heartbeat too slow", Config{DSN: "postgres:///eos", Heartbeat: 2 * time.Second}, "third of the lease"},
		{"lease too short for the default heartbeat", Config{DSN: "postgres:///eos", Lease: 2 * time.Second}, "third of the lease"},
		{"retry too slow", Config{DSN: "postgres:///eos", Retry: 3 * time.Second}, "half the lease"},
		{"lease under 10ms", Config{DSN: "postgres:///eos", Lease: 9 * time.Millisecond, Heartbeat: time.Millisecond, Retry: time.Millisecond}, "too short"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.cfg.withDefaults()
			if err == nil {
				_, err = c.connConfig()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("config %+v: %v, want an error mentioning %q", tc.cfg, err, tc.want)
			}
		})
	}
}
