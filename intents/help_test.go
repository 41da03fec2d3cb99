package intents

import (
	"errors"
	"github.com/eosbot/eos/internal/golden"
	"path/filepath"
	"strings"
	"testing"
)

func TestHelpGolden(t *testing.T) {
	cat := testCatalog(t)
	for _, topic := range []string{"", "create", "deploy", "destroy", "plan", "cancel", "resize", "nextcloud", "authentik", "grafana", "lvm"} {
		name := topic
		if name == "" {
			name = "overview"
		}
		t.Run(name, func(t *testing.T) {
			got, err := Help(cat, topic)
			if err != nil {
				t.Fatalf("Help(%q): %v", topic, err)
			}
			golden.Check(t, filepath.Join("testdata", "help_"+name+".golden"), []byte(got))
		})
	}
}

func TestHelpNeverShowsSecrets(t *testing.T) {
	out, err := Help(testCatalog(t), "nextcloud")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "--admin-password") {
		t.Errorf("help offers the secret as a flag to type:\n%s", out)
	}
	if !strings.Contains(out, "generated secrets, never typed in chat (Eos makes them and keeps them in Vault): admin-password\n") {
		t.Errorf("help does not say the secret is generated and never typed:\n%s", out)
	}
	create, _ := Help(testCatalog(t), "create")
	if strings.Contains(create, "admin-password") {
		t.Errorf("help create offers a secret flag to type:\n%s", create)
	}
}

func TestHelpIsGeneratedFromTheCatalog(t *testing.T) {
	cat := testCatalog(t)
	out, err := Help(cat, "create")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range cat.ServiceNames() {
		if !strings.Contains(out, "\n  "+s+" ") {
			t.Errorf("help create does not list %s:\n%s", s, out)
		}
	}
	for _, want := range []string{"--port PORT (3000, 1–65535)", "--storage SIZE (100G, 10G–16T)", "--executors N (2, 1–32)", "--tier small|medium|large (small)"} {
		if !strings.Contains(out, want) {
			t.Errorf("help create lacks %q:\n%s", want, out)
		}
	}
}

func TestHelpUnknownTopic(t *testing.T) {
	tests := []struct{ topic, msg, suggestion string }{
		{"nextclod", `no help for "nextclod"`, "nextcloud"},
		{"craete", `no help for "craete"`, "create"},
		{"zzz", `no help for "zzz"; help alone lists the commands and services`, ""},
	}
	for _, tt := range tests {
		_, err := Help(testCatalog(t), tt.topic)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Help(%q) error %v, want *Error", tt.topic, err)
		}
		if e.Message != tt.msg || e.Suggestion != tt.suggestion || e.Column != 1 {
			t.Errorf("Help(%q) = %q %q col %d; want %q %q col 1", tt.topic, e.Message, e.Suggestion, e.Column, tt.msg, tt.suggestion)
		}
	}
}

// Every topic help accepts in a message renders without error.
func TestHelpEveryTopic(t *testing.T) {
	cat := testCatalog(t)
	for _, topic := range NewParser(cat).topics {
		if out, err := Help(cat, topic); err != nil || out == "" {
			t.Errorf("Help(%q) = %q, %v", topic, out, err)
		}
	}
}
