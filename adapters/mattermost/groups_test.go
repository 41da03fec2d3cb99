package mattermost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
	"github.com/mattermost/mattermost/server/public/model"
)

// groupAPI answers GET /groups as a licensed server does (q matches name or display name,
// filter_has_member keeps the user's groups); the unlicensed test server cannot show this.
type groupAPI struct {
	api
	groups  []*model.Group // MemberIDs holds the members
	queries []url.Values
}

func (g *groupAPI) DoAPIGet(_ context.Context, path, _ string) (*http.Response, error) {
	u, err := url.Parse(path)
	if err != nil || u.Path != "/groups" {
		return nil, errors.New("unexpected call " + path)
	}
	q := u.Query()
	g.queries = append(g.queries, q)
	out := []*model.Group{}
	for _, gr := range g.groups {
		name := strings.ToLower(*gr.Name + " " + gr.DisplayName)
		if strings.Contains(name, strings.ToLower(q.Get("q"))) &&
			(q.Get("filter_has_member") == "" || slices.Contains(gr.MemberIDs, q.Get("filter_has_member"))) {
			out = append(out, gr)
		}
	}
	b, _ := json.Marshal(out)
	return &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(b))}, nil
}

func TestMemberOf(t *testing.T) {
	bob, carol := adapters.User{ID: "bob-id", Name: "bob"}, adapters.User{ID: "carol-id", Name: "carol"}
	g := &groupAPI{groups: []*model.Group{
		{Id: "g1", Name: model.NewPointer("ops"), DisplayName: "Operations", MemberIDs: []string{"bob-id"}},
		{Id: "g2", Name: model.NewPointer("ops-oncall"), DisplayName: "Ops on call", MemberIDs: []string{"carol-id"}},
		{Id: "g3", Name: model.NewPointer("old"), DisplayName: "Old", MemberIDs: []string{"bob-id"}, DeleteAt: 1},
		// carol's custom group, displayed as the real group's name: it must not make her sre.
		{Id: "g4", Name: model.NewPointer("carols-club"), DisplayName: "sre", MemberIDs: []string{"carol-id"}},
		{Id: "g5", Name: model.NewPointer("sre"), DisplayName: "Site reliability", MemberIDs: []string{"bob-id"}},
	}}
	a := fakeAdapter(t, newFakeAPI())
	a.api = g
	ctx := context.Background()
	for _, tc := range []struct {
		user  adapters.User
		group string
		want  bool
		err   error
	}{
		{bob, "ops", true, nil},
		{bob, "@OPS", true, nil},
		{bob, "operations", false, adapters.ErrNoSuchGroup}, // a display name is no group name
		{bob, "sre", true, nil},
		{carol, "sre", false, nil}, // only in a group displayed as "sre"
		{carol, "@SRE", false, nil},
		{carol, "carols-club", true, nil},
		{carol, "ops", false, nil}, // in ops-oncall, whose name only contains "ops"
		{carol, "ops-oncall", true, nil},
		{bob, "old", false, adapters.ErrNoSuchGroup},
		{bob, "dba", false, adapters.ErrNoSuchGroup},
		{bob, "@", false, adapters.ErrNoSuchGroup},
	} {
		got, err := a.MemberOf(ctx, tc.user, tc.group)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("MemberOf(%s, %q) = %t, %v; want %t, %v", tc.user.Name, tc.group, got, err, tc.want, tc.err)
		}
	}
	if first := g.queries[0]; first.Get("q") != "ops" || first.Get("filter_has_member") != "bob-id" || first.Get("per_page") != "200" {
		t.Errorf("first search asked %v", first)
	}
}
