package discord

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/discord/discordfake"
)

// CanView computes View Channel from the guild's roles and the channel's overwrites as Discord
// does, lets a thread follow its parent (a private one only for its members and those who
// manage threads) and a DM its recipient, and says no for someone not in the guild.
func TestCanView(t *testing.T) {
	const view = discordgo.PermissionViewChannel
	f := newFakeDiscord(t)
	f.Mu.Lock()
	for id, name := range map[string]string{"505": "dana", "506": "erin", "507": "newbie"} {
		f.Users[id] = discordfake.User{ID: id, Name: name}
	}
	// @everyone may not view; the role member (703) may, as may the administrators (702).
	f.Roles = []discordfake.Role{
		{ID: discordfake.GuildID, Name: "@everyone", Permissions: discordgo.PermissionSendMessages},
		{ID: "700", Name: "ops"}, {ID: "701", Name: "dba"},
		{ID: "702", Name: "admins", Permissions: discordgo.PermissionAdministrator},
		{ID: "703", Name: "member", Permissions: view},
		{ID: "704", Name: "mods", Permissions: discordgo.PermissionManageThreads},
	}
	f.Members = map[string][]string{discordfake.BotID: {"703"}, "501": {"703"}, "502": {"703", "700"},
		"504": {"703", "701"}, "505": {"702"}, "506": {}, "507": {}, "508": {"703", "704"}}
	f.Owner = "506"
	everyone := discordfake.Overwrite{ID: discordfake.GuildID, Deny: view}
	for _, c := range []*discordfake.Channel{
		{ID: "210", Guild: discordfake.GuildID}, // no overwrites
		{ID: "220", Guild: discordfake.GuildID, Overwrites: []discordfake.Overwrite{ // ops only
			everyone, {ID: "703", Deny: view}, {ID: "700", Allow: view},
			{ID: "505", Member: true, Deny: view}}},
		{ID: "221", Guild: discordfake.GuildID, Parent: "220", Type: 11},
		{ID: "222", Guild: discordfake.GuildID, Parent: "210", Type: 12, ThreadMembers: []string{"501"}},
		{ID: "230", Guild: discordfake.GuildID, Overwrites: []discordfake.Overwrite{ // dba, but not carol
			everyone, {ID: "703", Deny: view}, {ID: "701", Allow: view},
			{ID: "504", Member: true, Deny: view}, {ID: "501", Member: true, Allow: view}}},
		{ID: "310", Type: 1, Recipients: []string{"501"}},
	} {
		f.Channels[c.ID] = c
	}
	f.Mu.Unlock()
	a := newTestAdapter(t, f)
	ctx := context.Background()
	for _, tc := range []struct {
		why, user, channel string
		want               bool
	}{
		{"a role grants View Channel", "501", "210", true},
		{"no role grants it", "507", "210", false},
		{"a role overwrite allows", "502", "220", true},
		{"the channel's overwrites deny", "501", "220", false},
		{"a member overwrite allows", "501", "230", true},
		{"a member overwrite denies what a role allows", "504", "230", false},
		{"an administrator, whatever the overwrites", "505", "220", true},
		{"the owner, whatever the overwrites", "506", "220", true},
		{"a thread follows its parent: allowed", "502", "221", true},
		{"a thread follows its parent: denied", "501", "221", false},
		{"a private thread: its member", "501", "222", true},
		{"a private thread: a reader of its parent who did not join", "502", "222", false},
		{"a private thread: someone who manages threads", "508", "222", true},
		{"a private thread: an administrator", "505", "222", true},
		{"the recipient of a DM", "501", "310", true},
		{"someone else and a DM", "502", "310", false},
		{"someone not in the guild", "598", "210", false},
	} {
		got, err := a.CanView(ctx, adapters.User{ID: tc.user}, tc.channel)
		if err != nil || got != tc.want {
			t.Errorf("%s: CanView(%s, %s) = %v, %v; want %v", tc.why, tc.user, tc.channel, got, err, tc.want)
		}
	}
	if got, err := a.CanView(ctx, adapters.User{ID: "501"}, "999"); err == nil || got {
		t.Errorf("CanView of a channel Discord does not know = %v, %v; want an error", got, err)
	}
}
