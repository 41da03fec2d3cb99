package console

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
)

// DeletedText replaces the text of a post its author deleted (/delete).
const DeletedText = "(message deleted)"

// change handles /edit N TEXT and /delete N: the current user changes a person's post, and
// the handler hears of it when it is an adapters.ChangeHandler.
func (a *Adapter) change(ctx context.Context, h adapters.Handler, cmd string, rest string) {
	num, text, _ := strings.Cut(strings.TrimSpace(rest), " ")
	text = strings.TrimSpace(text)
	if num == "" || (cmd == "/edit") != (text != "") {
		a.note("usage: /edit N TEXT — replace the text of post N; /delete N — delete post N")
		return
	}
	m, err := a.changePost(num, text, cmd == "/delete")
	if err != nil {
		a.note(err.Error())
		return
	}
	ch, ok := h.(adapters.ChangeHandler)
	if !ok {
		return
	}
	if cmd == "/delete" {
		ch.HandleDelete(ctx, a, m.Post)
		return
	}
	ch.HandleEdit(ctx, a, m)
}

// changePost edits or deletes post num, which must be a person's, and returns it as it is now.
func (a *Adapter) changePost(num, text string, del bool) (adapters.Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, err := strconv.Atoi(strings.TrimPrefix(num, "#"))
	if err != nil || id < 1 || id > len(a.posts) {
		return adapters.Message{}, fmt.Errorf("there is no post %s (posts are numbered 1 to %d)", num, len(a.posts))
	}
	p := a.posts[id-1]
	switch {
	case p.Author == a.cfg.BotName:
		return adapters.Message{}, fmt.Errorf("post %d is the bot's: only people's posts can be edited or deleted here", id)
	case p.Removed:
		return adapters.Message{}, fmt.Errorf("post %d is deleted already", id)
	}
	mark := " (edited)"
	if del {
		p.Text, p.Attachment, p.Removed, mark = DeletedText, "", true, ""
	} else {
		p.Text = text
		p.Edits++
	}
	a.notify()
	if a.cfg.Echo {
		a.print(p, mark)
	}
	return adapters.Message{Post: a.ref(p.ID, p.Thread), Author: user(p.Author), Text: p.Text, Direct: true, At: time.Now()}, nil
}
