package slack

import (
	"context"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
)

func TestPlainText(t *testing.T) {
	a, err := New(Config{AppToken: appToken, BotToken: botToken})
	if err != nil {
		t.Fatal(err)
	}
	a.users.put("UAL", adapters.User{ID: "UAL", Name: "alice"})
	self := &identity{userID: botID, name: "eos"}
	tests := []struct{ in, want string }{
		{"<@UBOT> create nextcloud", "@eos create nextcloud"},
		{"  <@UBOT|eos>   help", "@eos   help"},
		{"<@UBOT>", "@eos"},
		{"hey <@UBOT> status", "hey @eos status"},
		{"<@UBOT> approvers add <@UAL>", "@eos approvers add @alice"},
		{"<@UBOT> grant <@UZZ|zoe>", "@eos grant @zoe"},
		{"<@UBOT> create x --domain <http://cloud.example.org|cloud.example.org>", "@eos create x --domain cloud.example.org"},
		{"<@UBOT> notify <mailto:ops@example.org|ops@example.org> <https://example.org>", "@eos notify ops@example.org https://example.org"},
		{"<@UBOT> digest in <#CINFRA001|infra> <!here>", "@eos digest in #infra @here"},
		{"<@UBOT> create x --size &gt;50G &amp; &lt;fast&gt;", "@eos create x --size >50G & <fast>"},
		{"unclosed <@UBOT", "unclosed <@UBOT"},
	}
	for _, tt := range tests {
		if got := a.plainText(context.Background(), tt.in, self); got != tt.want {
			t.Errorf("plainText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestEmoji(t *testing.T) {
	tests := []struct{ slack, canonical string }{
		{"+1", "+1"}, {"thumbsup", "+1"}, {"+1::skin-tone-5", "+1"}, {"-1", "-1"}, {"thumbsdown::skin-tone-2", "-1"},
		{"white_check_mark", "white_check_mark"}, {"x", "x"}, {"heavy_check_mark", "heavy_check_mark"}, {"eyes", "eyes"},
	}
	for _, tt := range tests {
		if got := canonicalEmoji(tt.slack); got != tt.canonical {
			t.Errorf("canonicalEmoji(%q) = %q, want %q", tt.slack, got, tt.canonical)
		}
	}
	for in, want := range map[string]string{"👀": "eyes", ":white_check_mark:": "white_check_mark", "✅": "white_check_mark", "+1": "+1"} {
		if got := slackEmoji(in); got != want {
			t.Errorf("slackEmoji(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseTS(t *testing.T) {
	for in, want := range map[string]time.Time{
		"1700000000.000100": time.Unix(1700000000, 100000),
		"1700000000":        time.Unix(1700000000, 0),
		"garbage":           {},
	} {
		if got := parseTS(in); !got.Equal(want) {
			t.Errorf("parseTS(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestNewChecksConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"bot token in place of app token", Config{AppToken: botToken, BotToken: botToken}},
		{"missing bot token", Config{AppToken: appToken}},
		{"bad API URL", Config{AppToken: appToken, BotToken: botToken, APIURL: "ftp://x"}},
		{"backoff bounds reversed", Config{AppToken: appToken, BotToken: botToken, MinBackoff: time.Minute, MaxBackoff: time.Second}},
		{"bot token as admin user token", Config{AppToken: appToken, BotToken: botToken, AdminUserToken: botToken}},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg); err == nil {
			t.Errorf("%s: New accepted %+v", tt.name, tt.cfg.LogValue())
		}
	}
}
