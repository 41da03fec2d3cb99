package intents

import (
	"strings"
	"testing"
)

func TestAddressed(t *testing.T) {
	tests := []struct {
		text, rest string
		ok         bool
	}{
		{"@eos create nextcloud", "create nextcloud", true},
		{"eos create nextcloud", "create nextcloud", true},
		{"/eos status", "status", true},
		{"@eos: status", "status", true},
		{"eos, status", "status", true},
		{"@eos,status", "status", true},
		{"  @EOS\tstatus", "status", true},
		{"@Eos\u00a0status", "status", true},
		{"@eos", "", true},
		{"@eos:", "", true},
		{"@eos   ", "", true},
		{"eosbot status", "eosbot status", false},
		{"@eosbot status", "@eosbot status", false},
		{"create nextcloud", "create nextcloud", false},
		{"hey @eos status", "hey @eos status", false},
		{"@eo", "@eo", false},
		{"", "", false},
		{"@é", "@é", false},
	}
	for _, tt := range tests {
		rest, ok := Addressed(tt.text, "eos")
		if rest != tt.rest || ok != tt.ok {
			t.Errorf("Addressed(%q) = %q, %v; want %q, %v", tt.text, rest, ok, tt.rest, tt.ok)
		}
	}
	if rest, ok := Addressed("@ops-bot deploy grafana", "ops-bot"); !ok || rest != "deploy grafana" {
		t.Errorf("another bot name: got %q, %v", rest, ok)
	}
	if _, ok := Addressed("@eos status", ""); ok {
		t.Error("an empty bot name matched")
	}
}

func TestWithBotName(t *testing.T) {
	p := NewParser(testCatalog(t))
	ops := p.WithBotName("opsbot")
	in, err := ops.Parse("@opsbot: deploy grafana")
	if err != nil || describe(in) != "create grafana" {
		t.Fatalf("Parse with another bot name = %v, %v", in, err)
	}
	_, err = ops.Parse("@opsbot craete grafana")
	if e, ok := err.(*Error); !ok || e.Column != 9 {
		t.Errorf("error %v, want column 9 of the original text", err)
	}
	if _, err := p.Parse("@opsbot deploy grafana"); err == nil {
		t.Error("WithBotName changed the original parser")
	}
	help, err := ops.Help("")
	if err != nil || !strings.Contains(help, "@opsbot help COMMAND") || strings.Contains(help, "@eos") {
		t.Errorf("help does not use the bot's name:\n%s", help)
	}
}
