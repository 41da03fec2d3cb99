package bot

import (
	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// Every text Eos posts is made by bot/render from plain data; the engine gathers the data and
// posts what render made. The names below are the engine's short words for the texts it uses
// most, so its handlers read as they did before the texts moved.

type (
	serviceDrift = render.ServiceDrift
	digestView   = render.DigestView
	layerState   = render.LayerState
)

var (
	reply          = render.Reply
	plural         = render.Plural
	mentions       = render.Mentions
	typedRequest   = render.TypedRequest
	requestLine    = render.RequestLine
	rulesWho       = render.RulesWho
	progress       = render.Progress
	discountedText = render.DiscountedText
	unknownLayer   = render.UnknownLayer
	resultLine     = render.ResultLine
	changeTexts    = render.ChangeTexts
	fingerprint    = render.Fingerprint
	day            = render.Day
	fullPlanDoc    = render.FullPlan
)

const (
	iconWaiting     = render.IconWaiting
	iconRunning     = render.IconRunning
	iconOK          = render.IconOK
	iconSkipped     = render.IconSkipped
	iconRollingBack = render.IconRollingBack
)

// view is j as the texts say it.
func (j judgement) view() render.Judgement {
	return render.Judgement{Rules: j.rules, Verdict: j.verdict, Code: j.code.view()}
}

// view is v as the texts say it.
func (v codeVerdict) view() render.Code { return render.Code{SHA: v.sha, Decisions: v.decisions} }

// previewDoc is p's preview, judged by j, with its Vault row.
func previewDoc(p *store.Plan, j judgement, vaultRow string) adapters.Doc {
	return render.Preview(p, j.view(), vaultRow)
}
