package bot

import (
	"github.com/eosbot/eos/adapters"
	"github.com/eosbot/eos/bot/render"
	"github.com/eosbot/eos/bot/store"
)

// Every text Eos posts is made by bot/render from plain data; the engine gathers the data and
// posts what render made. What is below turns the engine's judgement into render's terms.

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
