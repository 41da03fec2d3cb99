package console

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/eosbot/eos/adapters"
)

// Whisper is a message the bot sent one person privately (adapters.Whisperer). It is not a
// post: it has no number, so nobody can react to it, edit it or reply to it.
type Whisper struct {
	To   adapters.User
	Near adapters.PostRef
	Text string
}

// Whisper prints doc to the transcript, labelled as meant for to alone ("eos → @alice,
// privately: …"). The console is one terminal, so the label is the only privacy it has.
func (a *Adapter) Whisper(_ context.Context, to adapters.User, near adapters.PostRef, doc adapters.Doc) error {
	if to.ID == "" {
		return errors.New("console: whisper to nobody (empty user id)")
	}
	name := to.Name
	if name == "" {
		name = to.ID
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	w := Whisper{To: to, Near: near, Text: doc.Plain()}
	a.whispers = append(a.whispers, w)
	a.notify()
	prefix := fmt.Sprintf("  %s → @%s, privately: ", a.cfg.BotName, name)
	pad := strings.Repeat(" ", len([]rune(prefix)))
	for i, l := range strings.Split(w.Text, "\n") {
		if i > 0 {
			prefix = pad
		}
		fmt.Fprintln(a.out, prefix+l)
	}
	a.out.Flush()
	return nil
}

// Whispers returns every whisper so far, oldest first.
func (a *Adapter) Whispers() []Whisper {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Whisper(nil), a.whispers...)
}

// CanView reports whether user may read channel: anyone may read the console's one channel,
// and there is no other.
func (a *Adapter) CanView(_ context.Context, user adapters.User, channel string) (bool, error) {
	return user.ID != "" && channel == a.cfg.Channel, nil
}
