package main

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// run executes the eos command line in-process and returns its output and error.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	t.Setenv("EOS_DATA_DIR", t.TempDir())
	cmd := rootCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

func TestParseJSON(t *testing.T) {
	out, err := run(t, "parse", "--json", "@eos deploy nextcloud with sso --domain cloud.example.org in staging")
	if err != nil {
		t.Fatalf("parse failed: %v\n%s", err, out)
	}
	var got struct {
		Verb  string         `json:"verb"`
		Noun  string         `json:"noun"`
		Args  []any          `json:"args"`
		Flags map[string]any `json:"flags"`
		Env   string         `json:"env"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if got.Verb != "create" || got.Noun != "nextcloud" || got.Env != "staging" || got.Flags["sso"] != true || got.Flags["domain"] != "cloud.example.org" {
		t.Fatalf("intent = %+v", got)
	}
}

func TestParseJSONErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text, message, suggestion string
		column                          int
	}{
		{"unknown verb", "@eos craete nextcloud", `unknown command "craete"`, "create", 6},
		{"unknown service", "create nextclod --sso", `unknown service "nextclod"`, "nextcloud", 8},
		{"unknown flag", "create nextcloud --sos", `unknown flag "--sos"`, "--sso", 18},
		{"missing value", "create grafana --port", "--port needs", "", 22},
		{"bad size", "resize lvm data 12Q", `"12Q" is not a size`, "", 17},
		{"unterminated quote", `create grafana --domain "cloud`, "unterminated", "", 25},
		{"over-long input", "create grafana " + strings.Repeat("x", 5000), "too long", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, "parse", "--json", tc.text)
			if err == nil {
				t.Fatalf("parse of %q succeeded: %s", tc.text, out)
			}
			var got struct {
				Error struct {
					Message    string `json:"message"`
					Column     int    `json:"column"`
					Suggestion string `json:"suggestion"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			e := got.Error
			if !strings.Contains(e.Message, tc.message) || e.Suggestion != tc.suggestion || (tc.column != 0 && e.Column != tc.column) || e.Column < 1 {
				t.Fatalf("error = %+v, want message containing %q, column %d, suggestion %q", e, tc.message, tc.column, tc.suggestion)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	out, err := run(t, "version")
	if err != nil || out != "eos dev\n" {
		t.Fatalf("version = %q, %v", out, err)
	}
}

func TestParseReconcileAndDriftHistory(t *testing.T) {
	for text, want := range map[string]string{
		"@eos fix grafana in staging":   `"verb":"reconcile","noun":"grafana","args":[],"flags":{},"env":"staging"`,
		"@eos drift history nextcloud":  `"verb":"drift","noun":"nextcloud","args":["history"]`,
		"@eos drift nextcloud":          `"verb":"drift","noun":"nextcloud","args":[]`,
		"@eos reconcile jenkins --port": ``,
	} {
		out, err := run(t, "parse", "--json", text)
		if want == "" {
			if err == nil {
				t.Errorf("%q parsed: %s", text, out)
			}
			continue
		}
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("%q = %s (%v), want it to contain %s", text, out, err, want)
		}
	}
}

func TestConfigChoosesAdapters(t *testing.T) {
	for _, tc := range []struct {
		env     map[string]string
		console bool
		what    string
	}{
		{map[string]string{}, true, "nothing configured: the console"},
		{map[string]string{"EOS_SLACK_APP_TOKEN": "xapp-1", "EOS_SLACK_BOT_TOKEN": "xoxb-1"}, false, "slack"},
		{map[string]string{"EOS_DISCORD_TOKEN": "t"}, false, "discord"},
		{map[string]string{"EOS_MATTERMOST_URL": "http://127.0.0.1:1", "EOS_MATTERMOST_TOKEN": "t"}, false, "mattermost"},
	} {
		cfg := &Config{}
		cfg.applyEnv(func(k string) string { return tc.env[k] })
		cfg.defaults()
		if cfg.consoleEnabled() != tc.console {
			t.Errorf("%s: console enabled = %v", tc.what, !tc.console)
		}
	}
	cfg := &Config{}
	cfg.applyEnv(func(k string) string {
		return map[string]string{"EOS_SLACK_APP_TOKEN": "xapp-a", "EOS_SLACK_BOT_TOKEN": "xoxb-b", "EOS_DISCORD_TOKEN": "d", "EOS_MATTERMOST_URL": "http://x", "EOS_MATTERMOST_TOKEN": "m"}[k]
	})
	if cfg.Slack.AppToken != "xapp-a" || cfg.Slack.BotToken != "xoxb-b" || cfg.Discord.Token != "d" || cfg.Mattermost.Token != "m" {
		t.Errorf("all three adapters from one configuration: %+v %+v %+v", cfg.Slack, cfg.Discord, cfg.Mattermost)
	}
}

func TestConfigSaltFromEnvironment(t *testing.T) {
	cfg := &Config{}
	cfg.applyEnv(func(k string) string {
		return map[string]string{"EOS_SALT_URL": "http://127.0.0.1:8000", "EOS_SALT_USERNAME": "eos", "EOS_SALT_PASSWORD": "pw",
			"EOS_SALT_EAUTH": "sharedsecret", "EOS_SALT_TARGETS": "web1,web2"}[k]
	})
	want := SaltConfig{URL: "http://127.0.0.1:8000", Username: "eos", Password: "pw", EAuth: "sharedsecret", Targets: []string{"web1", "web2"}}
	if cfg.Salt == nil || !reflect.DeepEqual(*cfg.Salt, want) {
		t.Errorf("salt = %+v, want %+v", cfg.Salt, want)
	}
}

func TestConfigFilePolicyWithVerbs(t *testing.T) {
	path := t.TempDir() + "/eos.hcl"
	os.WriteFile(path, []byte(`
policy "production" {
  approvers = ["bob"]
  ttl       = "15m"
  verb "destroy" {
    approvals = 2
    approvers = ["bob", "dave"]
  }
}
`), 0o644)
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.policy()
	if err != nil {
		t.Fatal(err)
	}
	if ep := p.For("production", "destroy"); ep.Approvals != 2 || len(ep.Approvers) != 2 || ep.TTL.Minutes() != 15 {
		t.Errorf("destroy in production = %+v", ep)
	}
	if ep := p.For("production", "create"); ep.Approvals != 1 || len(ep.Approvers) != 1 {
		t.Errorf("create in production = %+v", ep)
	}
	if _, err := loadConfig(writeTemp(t, `policy "x" { colour = "red" }`)); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("an unknown setting was accepted: %v", err)
	}
}

func writeTemp(t *testing.T, text string) string {
	path := t.TempDir() + "/eos.hcl"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The commented sample in examples/ is a configuration Eos accepts.
func TestExampleConfigLoads(t *testing.T) {
	cfg, err := loadConfig("../../examples/eos.hcl")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.policy(); err != nil {
		t.Fatal(err)
	}
	ds, err := cfg.digests()
	if err != nil || len(ds) != 1 || ds[0].Location.String() != "Europe/Berlin" {
		t.Fatalf("digests = %+v, %v", ds, err)
	}
	if cfg.Mattermost == nil || cfg.Mattermost.URL != "https://chat.example.org" || cfg.consoleEnabled() {
		t.Errorf("mattermost/console from the sample: %+v console=%v", cfg.Mattermost, cfg.consoleEnabled())
	}
}

// A digest's scan bound and check timeout reach the engine; mistakes in them are named.
func TestDigestScanSettings(t *testing.T) {
	cfg, err := loadConfig(writeTemp(t, `digest "d" {
  platform = "console"
  channel = "local"
  schedule = "0 8 * * *"
  parallelism = 3
  check_timeout = "90s"
}`))
	if err != nil {
		t.Fatal(err)
	}
	ds, err := cfg.digests()
	if err != nil || len(ds) != 1 || ds[0].Parallelism != 3 || ds[0].CheckTimeout.Seconds() != 90 {
		t.Fatalf("digests = %+v, %v", ds, err)
	}
	for text, want := range map[string]string{
		`check_timeout = "soon"`: `check_timeout "soon" is not a duration`,
		`parallelism = -1`:       `parallelism -1: want 1 or more`,
	} {
		cfg, err := loadConfig(writeTemp(t, `digest "d" {
  platform = "console"
  channel = "local"
  schedule = "0 8 * * *"
  `+text+`
}`))
		if err == nil {
			_, err = cfg.digests()
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", text, err, want)
		}
	}
}
