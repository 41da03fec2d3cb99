package console

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/eosbot/eos/adapters"
)

// RemovedText replaces the text of a deleted post, in the posts and in the transcript.
const RemovedText = "(message removed: it contained a secret)"

// Delete removes a post's text: the post keeps its number (so later ones do not shift) but
// shows RemovedText, and the transcript prints the post again that way. What the terminal
// printed before cannot be taken back; Posts and WaitFor never show the text again.
func (a *Adapter) Delete(_ context.Context, ref adapters.PostRef) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, err := a.find(ref)
	if err != nil {
		return fmt.Errorf("deleting: %w", err)
	}
	p.Text, p.Attachment, p.Removed = RemovedText, "", true
	a.notify()
	a.print(p, "")
	return nil
}

// MemberOf reports whether user is listed in Config.Groups[group]; group may be written
// with a leading @. Members are compared by the console's id (the name, @ and case ignored),
// as LookupUser resolves them. A group not in Config.Groups is adapters.ErrNoSuchGroup.
func (a *Adapter) MemberOf(_ context.Context, user adapters.User, group string) (bool, error) {
	members, ok := a.cfg.Groups[strings.TrimPrefix(group, "@")]
	if !ok {
		return false, fmt.Errorf("console group %q: %w", group, adapters.ErrNoSuchGroup)
	}
	return user.ID != "" && slices.ContainsFunc(members, func(m string) bool { return userID(m) == user.ID }), nil
}
