package mattermost

import (
	"context"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

func TestMentions(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"@eos create nextcloud", true},
		{"hey @eos, create nextcloud", true},
		{"@EOS status", true},
		{"thanks @eos.", true},
		{"@eos", true},
		{"(@eos)", true},
		{"ask @eosbot", false},
		{"mail x@eos.example.org", false},
		{"@eos.admin please", false},
		{"@eos_old status", false},
		{"eos create", false},
		{"@eo create", false},
		{"not @eosx but @eos yes", true},
	}
	for _, tt := range tests {
		if got := mentions(tt.text, "eos"); got != tt.want {
			t.Errorf("mentions(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestDeliverPostFilters(t *testing.T) {
	channel := model.NewId()
	post := func(edit func(*model.Post)) *model.Post {
		p := &model.Post{Id: model.NewId(), ChannelId: channel, UserId: aliceUser.Id, Message: "@eos status", CreateAt: 1700000000000}
		if edit != nil {
			edit(p)
		}
		return p
	}
	tests := []struct {
		name    string
		post    *model.Post
		chType  model.ChannelType
		served  map[string]model.ChannelType
		deliver bool
		direct  bool
	}{
		{"mention in a channel", post(nil), model.ChannelTypeOpen, nil, true, false},
		{"direct message without mention", post(func(p *model.Post) { p.Message = "status" }), model.ChannelTypeDirect, nil, true, true},
		{"no mention in a channel", post(func(p *model.Post) { p.Message = "status" }), model.ChannelTypeOpen, nil, false, false},
		{"group message needs a mention", post(func(p *model.Post) { p.Message = "status" }), model.ChannelTypeGroup, nil, false, false},
		{"own post", post(func(p *model.Post) { p.UserId = botUser.Id }), model.ChannelTypeOpen, nil, false, false},
		{"other bot account", post(func(p *model.Post) { p.UserId = otherBot.Id }), model.ChannelTypeOpen, nil, false, false},
		{"from_bot prop (webhook)", post(func(p *model.Post) { p.AddProp("from_bot", "true") }), model.ChannelTypeOpen, nil, false, false},
		{"system message", post(func(p *model.Post) { p.Type = model.PostTypeJoinChannel }), model.ChannelTypeOpen, nil, false, false},
		{"channel not served", post(nil), model.ChannelTypeOpen, map[string]model.ChannelType{model.NewId(): model.ChannelTypeOpen}, false, false},
		{"served channel", post(nil), model.ChannelTypeOpen, map[string]model.ChannelType{channel: model.ChannelTypeOpen}, true, false},
		{"thread reply carries its root", post(func(p *model.Post) { p.RootId = "root1" }), model.ChannelTypeOpen, nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := fakeAdapter(t, newFakeAPI(botUser, aliceUser, otherBot))
			a.served = tt.served
			var c collector
			if err := a.deliverPost(context.Background(), &c, botUser, tt.post, tt.chType); err != nil {
				t.Fatal(err)
			}
			if !tt.deliver {
				if len(c.msgs) != 0 {
					t.Errorf("delivered %+v, want nothing", c.msgs)
				}
				return
			}
			if len(c.msgs) != 1 {
				t.Fatalf("delivered %d messages, want 1", len(c.msgs))
			}
			m := c.msgs[0]
			want := adapters.PostRef{Platform: "mattermost", Channel: channel, ID: tt.post.Id, Thread: tt.post.RootId}
			if m.Post != want || m.Author.Name != "alice" || m.Direct != tt.direct || m.Text != tt.post.Message {
				t.Errorf("delivered %+v, want post %+v by alice, direct %v", m, want, tt.direct)
			}
			// The same post heard twice (websocket and catch-up) is delivered once.
			if err := a.deliverPost(context.Background(), &c, botUser, tt.post, tt.chType); err != nil || len(c.msgs) != 1 {
				t.Errorf("second delivery: err %v, %d messages, want 1", err, len(c.msgs))
			}
		})
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"no URL", Config{Token: "t"}},
		{"not http", Config{URL: "ftp://chat", Token: "t"}},
		{"no token", Config{URL: "https://chat"}},
		{"bad channel", Config{URL: "https://chat", Token: "t", Channels: []string{"infra"}}},
		{"empty team", Config{URL: "https://chat", Token: "t", Channels: []string{"/infra"}}},
		{"backoff bounds swapped", Config{URL: "https://chat", Token: "t", MinBackoff: 10, MaxBackoff: 5}},
	}
	for _, tt := range tests {
		if _, err := New(tt.cfg); err == nil {
			t.Errorf("%s: New accepted %+v", tt.name, tt.cfg)
		}
	}
	a, err := New(Config{URL: "https://chat.example.org/", Token: "t", Channels: []string{"ops/infra", model.NewId()}})
	if err != nil {
		t.Fatal(err)
	}
	if a.wsURL != "wss://chat.example.org" || a.Name() != "mattermost" {
		t.Errorf("wsURL %q, Name %q", a.wsURL, a.Name())
	}
}
