package render

import (
	"github.com/eosbot/eos/bot/policy"
	"github.com/eosbot/eos/bot/store"
)

// judgedBy judges p by pol as a platform would where every approver's handle is their own
// name: for renderings that need approvals counted without a platform to ask.
func judgedBy(p *store.Plan, pol policy.Policy) Judgement {
	rules := pol.Rules(p.Plan)
	voters := make([]policy.Voter, len(p.Approvals))
	for i, v := range p.Approvals {
		who := policy.Person{Platform: v.Platform, ID: v.UserID, Name: v.User, Matches: []string{v.User}}
		voters[i] = policy.Voter{Vote: v, Person: who, Self: who.Is(p.Request.Platform, p.Requester.ID)}
	}
	return Judgement{Rules: rules, Verdict: policy.Judge(rules, voters)}
}

// judgedByRule is judgedBy under a policy of one rule, ep, for every environment.
func judgedByRule(p *store.Plan, ep policy.EnvPolicy) Judgement {
	return judgedBy(p, policy.Policy{Default: ep, Envs: map[string]policy.EnvPolicy{}})
}
