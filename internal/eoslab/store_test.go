package eoslab

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type thing struct {
	Name string `json:"name"`
	Size int    `json:"size"`
}

func newTestStore(t *testing.T, cfg StoreConfig) *Store {
	t.Helper()
	if cfg.Root == "" {
		cfg.Root = t.TempDir()
	}
	s, err := NewStore(cfg)
	if err != nil {
		t.Fatalf("NewStore: %v", err)
	}
	return s
}

func TestStoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, StoreConfig{})
	ref := Ref{Kind: "server", Key: "web", Name: "web"}

	if found, err := s.Get(ctx, ref, &thing{}); err != nil || found {
		t.Fatalf("Get before create = %v, %v; want not found", found, err)
	}
	if err := s.Create(ctx, ref, thing{Name: "web", Size: 1}); err != nil {
		t.Fatalf("Create: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(s.Root(), "server", "web.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"name\": \"web\",\n  \"size\": 1\n}\n"; string(data) != want {
		t.Errorf("file = %q, want pretty-printed %q", data, want)
	}
	if err := s.Create(ctx, ref, thing{Name: "web", Size: 2}); !errors.Is(err, ErrExists) {
		t.Errorf("second Create = %v, want ErrExists", err)
	}
	if err := s.Put(ctx, ref, thing{Name: "web", Size: 3}); err != nil {
		t.Fatalf("Put: %v", err)
	}
	var got thing
	if found, err := s.Get(ctx, ref, &got); err != nil || !found || got.Size != 3 {
		t.Errorf("Get after Put = %+v, %v, %v; want size 3", got, found, err)
	}
	if keys, err := s.Keys(ctx, "server"); err != nil || strings.Join(keys, ",") != "web" {
		t.Errorf("Keys = %v, %v; want [web] and no temporary files", keys, err)
	}
	if err := s.Delete(ctx, ref); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if err := s.Delete(ctx, ref); err != nil {
		t.Errorf("Delete of a missing object = %v, want nil", err)
	}
}

func TestStoreRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, StoreConfig{})
	for _, ref := range []Ref{
		{Kind: "server", Key: "../escape"},
		{Kind: "server", Key: ".hidden"},
		{Kind: "", Key: "web"},
	} {
		if err := s.Create(ctx, ref, thing{}); err == nil || !strings.Contains(err.Error(), "invalid object reference") {
			t.Errorf("Create(%v) = %v, want invalid object reference", ref, err)
		}
	}

	ref := Ref{Kind: "server", Key: "broken"}
	if err := os.MkdirAll(filepath.Join(s.Root(), "server"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.Path(ref), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, ref, &thing{}); err == nil || !strings.Contains(err.Error(), s.Path(ref)) {
		t.Errorf("Get of a hand-broken file = %v, want a parse error naming the file", err)
	}
}

func TestStoreFailOn(t *testing.T) {
	ctx := context.Background()
	s := newTestStore(t, StoreConfig{FailOn: []string{" web ", "volume/data", "cloud.example.com"}})
	tests := []struct {
		ref  Ref
		fail bool
	}{
		{Ref{Kind: "server", Key: "web", Name: "web"}, true},
		{Ref{Kind: "volume", Key: "data", Name: "data"}, true},
		{Ref{Kind: "server", Key: "data", Name: "data"}, false},
		{Ref{Kind: "dns_record", Key: "cloud.example.com_A", Name: "cloud.example.com"}, true},
		{Ref{Kind: "server", Key: "db", Name: "db"}, false},
	}
	for _, tt := range tests {
		createErr := s.Create(ctx, tt.ref, thing{})
		putErr := s.Put(ctx, tt.ref, thing{})
		for op, err := range map[string]error{"Create": createErr, "Put": putErr} {
			if got := errors.Is(err, ErrSimulatedFailure); got != tt.fail {
				t.Errorf("%s(%v) = %v; simulated failure %v, want %v", op, tt.ref, err, got, tt.fail)
			}
		}
		if _, err := os.Stat(s.Path(tt.ref)); (err == nil) == tt.fail {
			t.Errorf("%v: file exists = %v, want %v", tt.ref, err == nil, !tt.fail)
		}
	}
}

func TestStoreDelayHonoursCancellation(t *testing.T) {
	s := newTestStore(t, StoreConfig{Delay: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ref := Ref{Kind: "server", Key: "web", Name: "web"}
	for op, err := range map[string]error{
		"Create": s.Create(ctx, ref, thing{}),
		"Put":    s.Put(ctx, ref, thing{}),
		"Delete": s.Delete(ctx, ref),
	} {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context = %v, want context.Canceled", op, err)
		}
	}
	if _, err := os.Stat(s.Path(ref)); err == nil {
		t.Error("a cancelled Create wrote the file")
	}
}

func TestNewStoreRejectsBadConfig(t *testing.T) {
	for _, cfg := range []StoreConfig{{}, {Root: t.TempDir(), Delay: -time.Second}} {
		if _, err := NewStore(cfg); err == nil {
			t.Errorf("NewStore(%+v) succeeded, want an error", cfg)
		}
	}
}

func TestFakeIPv4IsStableAndInDocumentationRanges(t *testing.T) {
	docs := []netip.Prefix{
		netip.MustParsePrefix("192.0.2.0/24"),
		netip.MustParsePrefix("198.51.100.0/24"),
		netip.MustParsePrefix("203.0.113.0/24"),
	}
	seen := map[string]bool{}
	for _, name := range []string{"web", "db", "proxy-nextcloud", "a", "b", "c", "d", "e"} {
		ip := fakeIPv4(name)
		if ip != fakeIPv4(name) {
			t.Errorf("fakeIPv4(%q) is not stable", name)
		}
		addr := netip.MustParseAddr(ip)
		inDocs := false
		for _, p := range docs {
			inDocs = inDocs || p.Contains(addr)
		}
		if !inDocs || addr.As4()[3] == 0 || addr.As4()[3] == 255 {
			t.Errorf("fakeIPv4(%q) = %s, want a host address in a documentation range", name, ip)
		}
		seen[ip] = true
	}
	if len(seen) < 6 {
		t.Errorf("only %d distinct addresses for 8 names: %v", len(seen), seen)
	}
}
