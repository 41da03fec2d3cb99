package mattermost

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/adapters/adapterstest"
	"github.com/mattermost/mattermost/server/public/model"
)

// TestE2EGonePostIsErrNoSuchPost: on a real server, only a post that is not there (any more)
// becomes adapters.ErrNoSuchPost; the engine cancels a plan whose preview is gone, so a
// refusal or a revoked token must stay an ordinary error.
func TestE2EGonePostIsErrNoSuchPost(t *testing.T) {
	s := realServer(t)
	ch := s.Channel(t, "gone")
	ctx := context.Background()
	n := nonce()
	bot, other, revoked := s.client(t, s.BotToken), s.client(t, s.OtherBotToken), s.client(t, "no-such-token")
	post := func(text string) adapters.PostRef {
		p, err := bot.Post(ctx, ch.Id, adapters.NewDoc(adapters.Text{Text: text + " " + n}))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	kept, deleted := post("Plan kept"), post("Plan deleted")
	s.Bob.React(t, kept.ID, "+1")
	// The server keeps serving the reactions of a deleted post: bob's approval must not count.
	s.Bob.React(t, deleted.ID, "+1")
	if err := bot.Delete(ctx, deleted); err != nil {
		t.Fatal(err)
	}
	request := s.Alice.Say(t, ch.Id, "", "@eos create grafana "+n)
	if _, err := s.Alice.Client.DeletePost(ctx, request.Id); err != nil {
		t.Fatal(err)
	}
	withdrawn := adapters.PostRef{Platform: platform, Channel: ch.Id, ID: request.Id}
	never := adapters.PostRef{Platform: platform, Channel: ch.Id, ID: model.NewId()}

	doc := adapters.NewDoc(adapters.Text{Text: "x " + n})
	reactions := func(a *Adapter, p adapters.PostRef) error {
		list, err := a.Reactions(ctx, p)
		if err == nil && (len(list) != 1 || list[0].User.Name != "bob" || list[0].Emoji != "+1") {
			t.Errorf("Reactions(%s) = %+v, want bob's +1", p.ID, list)
		}
		return err
	}
	edit := func(a *Adapter, p adapters.PostRef) error { return a.Edit(ctx, p, doc) }
	del := func(a *Adapter, p adapters.PostRef) error { return a.Delete(ctx, p) }
	reply := func(a *Adapter, p adapters.PostRef) error { _, err := a.Reply(ctx, p, doc); return err }
	adapterstest.CheckGone(t, []adapterstest.GoneCase[*Adapter]{
		{Name: "reactions of a post", Op: reactions, A: bot, Post: kept},
		{Name: "reactions of a deleted post", Op: reactions, A: bot, Post: deleted, ErrText: "no such post", Gone: true},
		{Name: "reactions of a post never made", Op: reactions, A: bot, Post: never, ErrText: "no such post", Gone: true},
		{Name: "reactions with a revoked token", Op: reactions, A: revoked, Post: kept, ErrText: "expired session"},
		{Name: "edit a post", Op: edit, A: bot, Post: kept},
		{Name: "edit a deleted post", Op: edit, A: bot, Post: deleted, ErrText: "appropriate permissions", Gone: true},
		{Name: "edit another bot's post", Op: edit, A: other, Post: kept, ErrText: "appropriate permissions"},
		{Name: "delete a deleted post", Op: del, A: bot, Post: deleted, ErrText: "appropriate permissions", Gone: true},
		{Name: "delete a post never made", Op: del, A: bot, Post: never, ErrText: "appropriate permissions", Gone: true},
		{Name: "delete another's post without the permission", Op: del, A: other, Post: kept, ErrText: "delete_others_posts"},
		{Name: "reply to a post", Op: reply, A: bot, Post: kept},
		{Name: "reply to a deleted request", Op: reply, A: bot, Post: withdrawn, ErrText: "Invalid RootId", Gone: true},
		{Name: "reply with a revoked token", Op: reply, A: revoked, Post: kept, ErrText: "expired session"},
	})
}

// postAPI answers GetPost as told and counts the calls.
type postAPI struct {
	api
	post  *model.Post
	resp  *model.Response
	err   error
	calls int
}

func (p *postAPI) GetPost(context.Context, string, string) (*model.Post, *model.Response, error) {
	p.calls++
	return p.post, p.resp, p.err
}

// TestGoneTrustsOnlyTheServersNotFound: a refusal becomes ErrNoSuchPost only when the server
// answers GET /posts/{id} with its own 404 for a post, or returns the post marked deleted.
func TestGoneTrustsOnlyTheServersNotFound(t *testing.T) {
	appErr := func(status int, id string) (*model.Response, error) {
		return &model.Response{StatusCode: status}, model.NewAppError("GetPost", id, nil, "", status)
	}
	notFound, notFoundErr := appErr(404, postNotFound)
	noRoute, noRouteErr := appErr(404, "api.context.404.app_error")
	outage, outageErr := appErr(500, "app.post.get.app_error")
	forbidden, forbiddenErr := appErr(403, "api.context.permissions.app_error")
	tests := []struct {
		name     string
		status   int // of the refused operation
		get      postAPI
		gone     bool
		asksPost bool
	}{
		{name: "403, post not found", status: 403, get: postAPI{resp: notFound, err: notFoundErr}, gone: true, asksPost: true},
		{name: "400, post not found", status: 400, get: postAPI{resp: notFound, err: notFoundErr}, gone: true, asksPost: true},
		{name: "403, post marked deleted", status: 403, get: postAPI{post: &model.Post{DeleteAt: 1}}, gone: true, asksPost: true},
		{name: "403, post there", status: 403, get: postAPI{post: &model.Post{}}, asksPost: true},
		{name: "403, a 404 that is not about the post", status: 403, get: postAPI{resp: noRoute, err: noRouteErr}, asksPost: true},
		{name: "403, reading the post fails", status: 403, get: postAPI{resp: outage, err: outageErr}, asksPost: true},
		{name: "403, reading the post refused", status: 403, get: postAPI{resp: forbidden, err: forbiddenErr}, asksPost: true},
		{name: "401", status: 401, get: postAPI{resp: notFound, err: notFoundErr}},
		{name: "429", status: 429, get: postAPI{resp: notFound, err: notFoundErr}},
		{name: "500", status: 500, get: postAPI{resp: notFound, err: notFoundErr}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := fakeAdapter(t, newFakeAPI())
			a.api = &tt.get
			refused := errors.New(http.StatusText(tt.status))
			err := a.gone(context.Background(), "p1", &model.Response{StatusCode: tt.status}, refused)
			if got := errors.Is(err, adapters.ErrNoSuchPost); got != tt.gone || !errors.Is(err, refused) {
				t.Errorf("gone = %v: ErrNoSuchPost %t, want %t, keeping the server's error", err, got, tt.gone)
			}
			if asked := tt.get.calls > 0; asked != tt.asksPost {
				t.Errorf("asked for the post: %t, want %t", asked, tt.asksPost)
			}
		})
	}
}
