package enginetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
)

// The platform decides who sees a channel's plans on the status page: its own people only,
// those it says can view the channel, and those who can view one of its ops channels.
func TestMaySee(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC))
	mm := newWebFake("mattermost")
	dc := newWebFake("discord")
	plain := newChatFake("slack") // no ChannelViewer
	h := eostest.New(t, eostest.Options{Clock: clock, OpsChannels: []string{"mattermost:ops", "discord:dops"},
		Adapters: []adapters.Adapter{mm, dc, plain}})
	t.Cleanup(mm.stop)
	t.Cleanup(dc.stop)
	t.Cleanup(plain.stop)
	mm.allow("u-alice", "infra")
	mm.allow("u-carol", "ops")
	dc.allow("u-alice", "infra") // the same ID on Discord is someone else
	ctx := context.Background()
	person := func(platform, id string) store.WebPerson {
		return store.WebPerson{Platform: platform, UserID: id, Name: id}
	}

	for _, tc := range []struct {
		name              string
		who               store.WebPerson
		platform, channel string
		want              bool
	}{
		{"a viewer of the channel", person("mattermost", "u-alice"), "mattermost", "infra", true},
		{"not a viewer of that channel", person("mattermost", "u-alice"), "mattermost", "private", false},
		{"nobody the platform knows", person("mattermost", "u-mallory"), "mattermost", "infra", false},
		{"an ops viewer sees every channel", person("mattermost", "u-carol"), "mattermost", "private", true},
		{"an ops viewer of one platform, not another's", person("mattermost", "u-carol"), "discord", "infra", false},
		{"the same ID on another platform", person("discord", "u-alice"), "mattermost", "infra", false},
		{"a platform that cannot say", person("slack", "u-alice"), "slack", "infra", false},
		{"a platform not attached", person("teams", "u-alice"), "teams", "infra", false},
		{"no ID", person("mattermost", ""), "mattermost", "infra", false},
	} {
		if got := h.Engine.MaySee(ctx, tc.who, tc.platform, tc.channel); got != tc.want {
			t.Errorf("%s: MaySee(%+v, %s, %s) = %v, want %v", tc.name, tc.who, tc.platform, tc.channel, got, tc.want)
		}
	}
	// Everything (audit entries naming no plan) only for who reads an ops channel of their own
	// platform.
	for who, want := range map[store.WebPerson]bool{
		person("mattermost", "u-carol"): true,
		person("mattermost", "u-alice"): false,
		person("discord", "u-carol"):    false,
		person("slack", "u-carol"):      false,
		person("mattermost", ""):        false,
	} {
		if got := h.Engine.MaySeeAll(ctx, who); got != want {
			t.Errorf("MaySeeAll(%+v) = %v, want %v", who, got, want)
		}
	}
}

// An error from the platform is no, and is not remembered; a yes is remembered 30 seconds.
func TestMaySeeErrorsAndCache(t *testing.T) {
	t.Parallel()
	clock := eostest.NewClock(time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC))
	mm := newWebFake("mattermost")
	h := eostest.New(t, eostest.Options{Clock: clock, Adapters: []adapters.Adapter{mm}})
	t.Cleanup(mm.stop)
	mm.allow("u-alice", "infra")
	alice := store.WebPerson{Platform: "mattermost", UserID: "u-alice", Name: "alice"}
	ctx := context.Background()

	mm.failViews(errPlatformDown)
	if h.Engine.MaySee(ctx, alice, "mattermost", "infra") {
		t.Fatal("a platform error counted as yes")
	}
	mm.failViews(nil)
	calls := mm.viewCalls()
	if !h.Engine.MaySee(ctx, alice, "mattermost", "infra") {
		t.Fatal("the error's no was remembered")
	}
	if mm.viewCalls() != calls+1 {
		t.Fatalf("%d calls to the platform, want 1", mm.viewCalls()-calls)
	}

	mm.failViews(errPlatformDown) // the platform is not asked within 30 seconds
	clock.Advance(29 * time.Second)
	if !h.Engine.MaySee(ctx, alice, "mattermost", "infra") || mm.viewCalls() != calls+1 {
		t.Fatalf("within 30 seconds the answer was not remembered (%d calls)", mm.viewCalls()-calls)
	}
	clock.Advance(time.Second)
	if h.Engine.MaySee(ctx, alice, "mattermost", "infra") {
		t.Fatal("after 30 seconds the platform was not asked again")
	}
	if !eostest.ContainsAll(h.Log.String(), "counted as no", errPlatformDown.Error()) {
		t.Errorf("the platform's error is not logged:\n%s", h.Log.String())
	}
}
