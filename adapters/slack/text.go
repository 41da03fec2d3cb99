package slack

import (
	"context"
	"strings"
)

// botHandle is how a mention of the bot reaches the engine, whose parser expects a request to
// start with "@eos" or "eos".
const botHandle = "@eos"

// plainText turns Slack's message format back into what the person typed: the bot's mention
// becomes "@eos", other mentions "@name", channel links "#name", links their text, and the
// three escaped characters (&amp; &lt; &gt;) come back. Slack links bare domain names on its
// own ("--domain <http://cloud.example.org|cloud.example.org>"), so this matters for requests.
func (a *Adapter) plainText(ctx context.Context, text string, self *identity) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(text, '<')
		if open < 0 {
			break
		}
		end := strings.IndexByte(text[open:], '>')
		if end < 0 {
			break
		}
		b.WriteString(text[:open])
		b.WriteString(a.entity(ctx, text[open+1:open+end], self))
		text = text[open+end+1:]
	}
	b.WriteString(text)
	return strings.TrimSpace(unescape(b.String()))
}

// entity renders the inside of one <…> sequence.
func (a *Adapter) entity(ctx context.Context, inner string, self *identity) string {
	target, label, hasLabel := strings.Cut(inner, "|")
	switch {
	case strings.HasPrefix(target, "@"):
		id := target[1:]
		if id == self.userID {
			return botHandle
		}
		if hasLabel && label != "" {
			return "@" + strings.TrimPrefix(label, "@")
		}
		if u, err := a.user(ctx, id); err == nil && u.Name != "" {
			return "@" + u.Name
		}
		return "@" + id
	case strings.HasPrefix(target, "#"):
		if hasLabel && label != "" {
			return "#" + label
		}
		return target
	case strings.HasPrefix(target, "!"):
		if hasLabel {
			return label
		}
		switch special := target[1:]; special {
		case "here", "channel", "everyone":
			return "@" + special
		}
		return ""
	}
	if hasLabel && label != "" {
		return label
	}
	return strings.TrimPrefix(target, "mailto:")
}

var (
	unescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")
	escaper   = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

// unescape undoes the escaping Slack applies to message text.
func unescape(s string) string { return unescaper.Replace(s) }

// escape makes s safe as Slack mrkdwn or plain text: &, < and > are control characters.
func escape(s string) string { return escaper.Replace(s) }
