package bot

import (
	"time"

	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/executor"
)

// What the status page (package bot/web) reads from the engine. The page only reads: it
// never approves, cancels or runs anything; approval stays a reaction in chat.

// WebConfig configures the status page's links and sign-in.
type WebConfig struct {
	// URL is the page's public address ("https://eos.example.org"). When set, every preview
	// links to its plan's page; empty, nothing in chat links to the page.
	URL string
	// SignInURL is the address `@eos web` links point at: URL when that is set, else the local
	// address the page is served on. Empty means the page is off, and `@eos web` says so.
	SignInURL string
	// LinkTTL is how long a sign-in link stays usable (default 5 minutes); it works once.
	LinkTTL time.Duration
	// SessionTTL is how long a signed-in session lasts (default 8 hours).
	SessionTTL time.Duration
}

// RunUpdate is one thing that happened in a run, for a page watching it live.
type RunUpdate struct {
	// Event is a layer's progress step; zero when the update is only a line of output or the end.
	Event executor.Event `json:"event,omitzero"`
	// Line is a line of a layer's own output (Terraform's messages, a Salt state's result).
	Line  string             `json:"line,omitempty"`
	Layer executor.LayerName `json:"layer,omitempty"`
	// Finished is set on the last update of a run: its outcome is in the store.
	Finished bool `json:"finished,omitempty"`
	// Missed is how many updates this watcher did not get just before this one, because it
	// read too slowly; the run never waits for a watcher.
	Missed int       `json:"missed,omitempty"`
	Time   time.Time `json:"time"`
}

// The defaults of WebConfig's lifetimes: a link is meant to be clicked at once, a session to
// last a working day.
const (
	defaultLinkTTL    = 5 * time.Minute
	defaultSessionTTL = 8 * time.Hour
)

// Store is the engine's store, for the page to read.
func (e *Engine) Store() *store.Store { return e.st }

// Web is the status page's configuration, defaults filled in.
func (e *Engine) Web() WebConfig { return e.cfg.Web }

// Watch follows run id live: past is what happened so far in this process (empty when the
// run started elsewhere or before this process), live brings what happens next until the
// run finishes (a RunUpdate with Finished, then the channel is closed) or stop is called.
// A finished run stays watchable for 10 minutes (its past ends with the Finished update, and
// live is closed at once); a run unknown here gives nil past and a channel only stop closes.
// past holds at most the last 2000 updates. Call stop when done watching.
func (e *Engine) Watch(id string) (past []RunUpdate, live <-chan RunUpdate, stop func()) {
	return e.watch.watch(id)
}

// FullPlan is the full plan of p as chat shows it for `plan ID full`: every change with every
// attribute, sensitive values masked.
func FullPlan(p *store.Plan) adapters.Doc { return fullPlanDoc(p) }

// VaultSummary is the Vault line of p's preview: which secrets it creates, reuses, keeps or
// deletes, never their values; empty when the plan needs none.
func VaultSummary(p executor.Plan) string {
	needs := p.Secrets != nil && !p.Secrets.Empty()
	for _, u := range p.Spec.Units {
		needs = needs || len(u.Secrets) > 0
	}
	if !needs {
		return ""
	}
	return vaultRow(p, p.Secrets != nil)
}

// AttrLines is every attribute c changes, one a row, as the full plan lists them (values are
// masked in the plan already).
func AttrLines(c executor.Change) []string { return attrLines(c) }
