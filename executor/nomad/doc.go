// Package nomad is the Nomad layer of the executor: it turns a Spec's Nomad parts into Nomad
// jobs through the Nomad HTTP API (hashicorp/nomad/api), plans them with Nomad's own job plan
// (diff, placement failures, the job modify index the plan was made against), registers them
// with that index enforced, follows the evaluation and the deployment (or the allocations,
// for jobs without one) with blocking queries, reports drift and rolls back by reverting to
// the previous stable job version.
//
// It owns the mapping from a unit to its job ID (see JobID), the binding of typed values to a
// template's HCL2 variable blocks (written as HCL literals with hclwrite, never pasted as
// text; Nomad parses the result), and a small status view for `@eos status`.
//
// It imports executor and nothing else of Eos; it never knows it is driven from chat.
package nomad
