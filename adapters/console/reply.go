package console

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
)

// reply acts on `/reply N TEXT`: TEXT typed by the current user in the thread of post N (N's
// thread when N is a reply itself), as a person answers in a thread on Mattermost or Slack:
// `@eos why` or `@eos cancel` there is about the thread's plan.
func (a *Adapter) reply(ctx context.Context, h adapters.Handler, rest string) {
	num, text, _ := strings.Cut(strings.TrimSpace(rest), " ")
	text = strings.TrimSpace(text)
	if num == "" || text == "" {
		a.note("usage: /reply N TEXT — say TEXT in the thread of post N, for example /reply 2 @eos why")
		return
	}
	if a.cfg.Settle != nil { // a script's /reply names a post Eos may still be writing
		if err := a.cfg.Settle(ctx); err != nil {
			a.note("reply: " + err.Error())
			return
		}
	}
	m, err := a.sayIn(num, text)
	if err != nil {
		a.note(err.Error())
		return
	}
	h.HandleMessage(ctx, a, m)
}

// sayIn records text typed by the current user in the thread of post num.
func (a *Adapter) sayIn(num, text string) (adapters.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, err := strconv.Atoi(strings.TrimPrefix(num, "#"))
	if err != nil || id < 1 || id > len(a.posts) {
		return adapters.Message{}, fmt.Errorf("there is no post %s (posts are numbered 1 to %d)", num, len(a.posts))
	}
	root := id
	if t := a.posts[id-1].Thread; t != 0 {
		root = t
	}
	p := a.add(a.cfg.User, root, text)
	if a.cfg.Echo {
		a.print(p, "")
	}
	return adapters.Message{Post: a.ref(p.ID, root), Author: user(a.cfg.User), Text: text, Direct: true, At: time.Now()}, nil
}
