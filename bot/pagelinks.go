package bot

import (
	"strings"

	"github.com/eosbot/eos/adapters"
)

// Links from chat to the status page. They appear only when the page has a public address
// (webapi.WebConfig.URL); without one every post reads exactly as before. The renderers stay free
// of configuration: the engine adds the line to what they made.

// pageURL is the status page's address of kind/id ("plans/7f3a9c21"); "" without a URL.
func (e *Engine) pageURL(kind, id string) string {
	if e.cfg.Web.URL == "" {
		return ""
	}
	return strings.TrimSuffix(e.cfg.Web.URL, "/") + "/" + kind + "/" + id
}

// withPageLink ends doc with a line "label: the page of kind/id", when the page has a URL.
func (e *Engine) withPageLink(doc adapters.Doc, label, kind, id string) adapters.Doc {
	u := e.pageURL(kind, id)
	if u == "" {
		return doc
	}
	blocks := make([]adapters.Block, 0, len(doc.Blocks)+1)
	doc.Blocks = append(append(blocks, doc.Blocks...), adapters.Context{Text: label + ": " + u})
	return doc
}

// planLinked is a preview of plan id with its page link.
func (e *Engine) planLinked(doc adapters.Doc, id string) adapters.Doc {
	return e.withPageLink(doc, "Full plan and live progress", "plans", id)
}

// runLinked is run id's progress or result post with its page link.
func (e *Engine) runLinked(doc adapters.Doc, id string) adapters.Doc {
	return e.withPageLink(doc, "Live progress", "runs", id)
}
