package bot

import (
	"context"
	"fmt"
	"github.com/eosbot/eos/bot/webapi"
	"strings"
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/intents"
)

// `@eos web`: a one-time link that signs the asker in to the status page. The link is a
// secret: it goes only to the asker, privately (adapters.Whisperer), and only its hash is
// stored; logs, the audit log and the thread never see it. A platform that cannot whisper
// gets no link at all.

// web answers `web`.
func (e *Engine) web(ctx context.Context, c conv, _ *intents.Intent) answer {
	w := e.Web()
	if w.SignInURL == "" {
		return said(render.WebOff())
	}
	wh, ok := c.adapter.(adapters.Whisperer)
	if !ok {
		return said(render.CannotWhisper(c.adapter.Name()))
	}
	token := webapi.NewWebSecret()
	hash := webapi.WebTokenHash(token)
	now := e.now()
	person := store.WebPerson{Platform: c.adapter.Name(), UserID: c.msg.Author.ID, Name: c.msg.Author.Name}
	if err := e.st.AddWebLink(ctx, hash, store.WebLink{Person: person, Created: now, Expires: now.Add(w.LinkTTL)}); err != nil {
		return e.fail(c, "recording a sign-in link", err)
	}
	link := strings.TrimSuffix(w.SignInURL, "/") + "/signin/" + token
	if err := wh.Whisper(ctx, c.msg.Author, c.msg.Post, signInDoc(link, w)); err != nil {
		// The platform may have delivered it after all: the link is spent, not left usable.
		if _, rerr := e.st.RedeemWebLink(ctx, hash, now); rerr != nil {
			e.log.Error("spending an undelivered sign-in link", "platform", c.adapter.Name(), "user_id", c.msg.Author.ID, "err", rerr)
		}
		e.log.Error("sending a sign-in link privately", "platform", c.adapter.Name(), "user_id", c.msg.Author.ID,
			"err", strings.ReplaceAll(err.Error(), token, "[link]"))
		return said(render.WhisperFailed())
	}
	who := person.Platform + ":" + person.UserID
	e.audit(ctx, store.Entry{Kind: "web-link", User: person.Name, UserID: person.UserID, Platform: person.Platform,
		Text: "sent a one-time sign-in link for the status page to " + who})
	return said(render.LinkSent(inWords(w.LinkTTL)))
}

// signInDoc is the private message that carries link.
func signInDoc(link string, w webapi.WebConfig) adapters.Doc {
	return render.SignInLink(link, inWords(w.LinkTTL), inWords(w.SessionTTL))
}

// inWords says a duration as people do: "5 minutes", "8 hours", "1 hour 30 minutes".
func inWords(d time.Duration) string {
	unit := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	var parts []string
	if h := int64(d / time.Hour); h > 0 {
		parts = append(parts, unit(h, "hour"))
	}
	if m := int64(d % time.Hour / time.Minute); m > 0 {
		parts = append(parts, unit(m, "minute"))
	}
	if s := int64(d % time.Minute / time.Second); s > 0 || len(parts) == 0 {
		parts = append(parts, unit(s, "second"))
	}
	return strings.Join(parts, " ")
}
