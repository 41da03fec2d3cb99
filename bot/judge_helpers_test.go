package bot

import "github.com/eosbot/eos/bot/store"

// judgedBy judges p by policy as a platform would where every approver's handle is their own
// name: for renderings that need approvals counted without a platform to ask.
func judgedBy(p *store.Plan, policy Policy) judgement {
	rules := policy.Rules(p.Plan)
	voters := make([]Voter, len(p.Approvals))
	for i, v := range p.Approvals {
		who := Person{Platform: v.Platform, ID: v.UserID, Name: v.User, Matches: []string{v.User}}
		voters[i] = Voter{Vote: v, Person: who, Self: who.Is(p.Request.Platform, p.Requester.ID)}
	}
	return judgement{rules: rules, verdict: Judge(rules, voters)}
}

// judgedByRule is judgedBy under a policy of one rule, ep, for every environment.
func judgedByRule(p *store.Plan, ep EnvPolicy) judgement {
	return judgedBy(p, Policy{Default: ep, Envs: map[string]EnvPolicy{}})
}
