// Package policy is the approval policy as data and the decisions it makes: who may ask for a
// plan in an environment (Policy, EnvPolicy, VerbPolicy, RiskPolicy, MayRequest), how a policy
// list entry names people (ParseEntry: a handle, a group, on one platform or any), which rules
// a plan must satisfy (Policy.Rules), and how recorded approvals weigh against them (Judge,
// Verdict, MayApprove, MayReject). A Person arrives resolved (the engine asks the platforms
// who a handle is and which groups someone is in), so the policy does no I/O.
//
// It holds no sentences: the words Eos says about a rule or a verdict ("Needs 2 approvals
// from @bob or @dave", "1 of 2: @bob ✅") are the engine's (bot/rulestext.go). The only
// phrases here are the names of rules and the reason a risk rule applies, which are data a
// rule carries, as a Rego rule carries its message. The policy as code (Rego) is the
// subpackage rego.
package policy
