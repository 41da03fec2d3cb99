package bot

import (
	"github.com/eosbot/eos/bot/runwatch"
	"github.com/eosbot/eos/bot/webapi"

	"github.com/eosbot/eos/bot/store"
)

// What the status page (package bot/web) reads from the engine. The page only reads: it
// never approves, cancels or runs anything; approval stays a reaction in chat.

// Store is the engine's store, for the page to read.
func (e *Engine) Store() *store.Store { return e.st }

// Web is the status page's configuration, defaults filled in.
func (e *Engine) Web() webapi.WebConfig { return e.cfg.Web }

// Watch follows run id live: past is what happened so far in this process (empty when the
// run started elsewhere or before this process), live brings what happens next until the
// run finishes (a runwatch.RunUpdate with Finished, then the channel is closed) or stop is called.
// A finished run stays watchable for 10 minutes (its past ends with the Finished update, and
// live is closed at once); a run unknown here gives nil past and a channel only stop closes.
// past holds at most the last 2000 updates. Call stop when done watching.
func (e *Engine) Watch(id string) (past []runwatch.RunUpdate, live <-chan runwatch.RunUpdate, stop func()) {
	return e.runs.watch.Watch(id)
}
