package slack

import (
	"strings"
	"unicode/utf8"

	"github.com/eosbot/eos/adapters"
	"github.com/slack-go/slack"
)

// Slack's limits on one message (Block Kit reference).
const (
	// maxBlocks is the most blocks one message may carry.
	maxBlocks = 50
	// maxSectionText is the longest text of a section (and of a context element), in characters.
	maxSectionText = 3000
	// maxHeaderText is the longest text of a header block.
	maxHeaderText = 150
	// maxFallback bounds the plain-text fallback shown in notifications.
	maxFallback = 3000
	// maxReplyText bounds the text of one continuation message in the thread; Slack documents no
	// total for a message's blocks, so continuations stay well below what a post may carry.
	maxReplyText = 4 * maxSectionText
)

// Message is one Slack message as chat.postMessage takes it: Block Kit blocks and the plain
// text Slack shows where blocks cannot be (notifications, some clients).
type Message struct {
	Text   string        `json:"text"`
	Blocks []slack.Block `json:"blocks"`
}

// Render lays doc out as Slack messages. The first is the post itself: a Heading becomes a header
// block, a Text a mrkdwn section, a Table an aligned table in a code block, a List a bulleted
// section, Code a code block, a Context a context block. Whatever does not fit in one message
// (a block over 3,000 characters, more than 50 blocks) and doc.Attachment follow as further
// messages, meant for the post's thread: a table is cut only between rows and repeats its header
// in every continuation, a code block is closed and reopened, and the post ends with a line
// saying that it continues in the thread.
func Render(doc adapters.Doc) []Message {
	var (
		rendered [][]slack.Block
		total    int
		cut      bool
	)
	for _, b := range doc.Blocks {
		if c := renderBlock(b); len(c) > 0 {
			rendered = append(rendered, c)
			total += len(c)
			cut = cut || len(c) > 1
		}
	}
	extra := attachmentBlocks(doc.Attachment)
	var post, rest []slack.Block
	if !cut && total <= maxBlocks && len(extra) == 0 {
		for _, c := range rendered {
			post = append(post, c...)
		}
	} else {
		// The post keeps the first part of every block it has room for (the footer saying how
		// to approve included); the rest follows in the thread, in the order of the doc.
		for _, c := range rendered {
			if len(post) < maxBlocks-1 {
				post = append(post, c[0])
				c = c[1:]
			}
			rest = append(rest, c...)
		}
		post = append(post, contextBlock(continuedNote(doc.Attachment, len(rest) > 0)))
	}
	msgs := []Message{{Text: cutText(doc.Plain(), maxFallback), Blocks: post}}
	msgs = append(msgs, continuations(rest)...)
	return append(msgs, continuations(extra)...)
}

// continuedNote says where the rest of a long post went.
func continuedNote(at *adapters.Attachment, cut bool) string {
	var parts []string
	if cut {
		parts = append(parts, "Too long for one message: continued in the thread.")
	}
	if at != nil {
		parts = append(parts, "Full text in the thread: "+escape(attachmentName(at))+".")
	}
	return "_" + strings.Join(parts, " ") + "_"
}

// continuations packs blocks into messages of at most maxBlocks blocks and maxReplyText
// characters each.
func continuations(blocks []slack.Block) []Message {
	var (
		msgs []Message
		cur  []slack.Block
		size int
	)
	flush := func() {
		if len(cur) > 0 {
			msgs = append(msgs, Message{Text: cutText(plainOf(cur), maxFallback), Blocks: cur})
		}
		cur, size = nil, 0
	}
	for _, b := range blocks {
		n := utf8.RuneCountInString(textOf(b))
		if len(cur) == maxBlocks || len(cur) > 0 && size+n > maxReplyText {
			flush()
		}
		cur = append(cur, b)
		size += n
	}
	flush()
	return msgs
}

// renderBlock renders one Doc block as one or more Slack blocks, each within Slack's limits.
func renderBlock(b adapters.Block) []slack.Block {
	switch v := b.(type) {
	case adapters.Heading:
		t := oneLine(v.Text)
		switch {
		case t == "":
		case len([]rune(t)) <= maxHeaderText:
			return []slack.Block{slack.NewHeaderBlock(slack.NewTextBlockObject(slack.PlainTextType, t, true, false))}
		default:
			// Longer than a header block takes: a bold section keeps every word (a digest's
			// headline with its counts) instead of cutting it.
			return sections(pack([]string{"*" + escape(t) + "*"}, "", "", ""))
		}
	case adapters.Text:
		return sections(pack(lines(escape(v.Text)), "", "", ""))
	case adapters.Context:
		var out []slack.Block
		for _, t := range pack(lines(escape(v.Text)), "", "", "") {
			out = append(out, contextBlock(t))
		}
		return out
	case adapters.List:
		items := make([]string, 0, len(v.Items))
		for _, it := range v.Items {
			items = append(items, "• "+strings.ReplaceAll(escape(it), "\n", "\n   "))
		}
		return sections(pack(items, "", "", ""))
	case adapters.Code:
		return sections(pack(lines(escape(fenceSafe(v.Text))), "", "```\n", "\n```"))
	case adapters.Table:
		head, rows := tableLines(v)
		if head == "" {
			return nil
		}
		return sections(pack(rows, head, "```\n", "\n```"))
	}
	return nil
}

// tableLines aligns t with adapters.PlainTable and returns its header (with a rule under it)
// and its rows, escaped.
func tableLines(t adapters.Table) (head string, rows []string) {
	if len(t.Header) == 0 && len(t.Rows) == 0 {
		return "", nil
	}
	clean := adapters.Table{Header: cells(t.Header), Rows: make([][]string, len(t.Rows))}
	for i, r := range t.Rows {
		clean.Rows[i] = cells(r)
	}
	all := strings.Split(fenceSafe(adapters.PlainTable(clean)), "\n")
	width := 0
	for _, l := range all {
		width = max(width, utf8.RuneCountInString(l))
	}
	rule := []rune(strings.Repeat("-", width))
	for i, r := range []rune(all[0]) {
		if r == '|' {
			rule[i] = '+'
		}
	}
	for i := range all {
		all[i] = escape(all[i])
	}
	return all[0] + "\n" + string(rule), all[1:]
}

// cells keeps every cell on one line, so a row stays one line of the table.
func cells(row []string) []string {
	out := make([]string, len(row))
	for i, c := range row {
		out[i] = oneLine(c)
	}
	return out
}

func sections(texts []string) []slack.Block {
	out := make([]slack.Block, 0, len(texts))
	for _, t := range texts {
		out = append(out, slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, t, false, false), nil, nil))
	}
	return out
}

func contextBlock(text string) slack.Block {
	return slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, text, false, false))
}

// attachmentBlocks shows an attachment as its name followed by its text in code blocks.
func attachmentBlocks(at *adapters.Attachment) []slack.Block {
	if at == nil {
		return nil
	}
	out := []slack.Block{contextBlock("*" + escape(attachmentName(at)) + "*")}
	return append(out, sections(pack(lines(escape(fenceSafe(at.Text))), "", "```\n", "\n```"))...)
}

func attachmentName(at *adapters.Attachment) string {
	if at.Name == "" {
		return "eos-attachment.txt"
	}
	return at.Name
}

// textOf is the text a block shows.
func textOf(b slack.Block) string {
	switch v := b.(type) {
	case *slack.HeaderBlock:
		return v.Text.Text
	case *slack.SectionBlock:
		return v.Text.Text
	case *slack.ContextBlock:
		var parts []string
		for _, e := range v.ContextElements.Elements {
			if t, ok := e.(*slack.TextBlockObject); ok {
				parts = append(parts, t.Text)
			}
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// plainOf is the fallback text of a continuation: its blocks' text without code fences.
func plainOf(blocks []slack.Block) string {
	parts := make([]string, 0, len(blocks))
	for _, b := range blocks {
		t := strings.TrimSuffix(strings.TrimPrefix(textOf(b), "```\n"), "\n```")
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n")
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }

// fenceSafe breaks up runs of three backticks, which would end a Slack code block early (Slack
// has no escape for them), with a zero-width space.
func fenceSafe(s string) string { return strings.ReplaceAll(s, "```", "`\u200b``") }

// cutText shortens s to at most n runes, marking the cut with "…".
func cutText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return cutRunes(s, n-1) + "…"
}
