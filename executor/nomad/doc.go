// Package nomad is the Nomad layer of the executor: it turns a Spec's Nomad parts into Nomad
// jobs through the Nomad HTTP API (hashicorp/nomad/api), plans them with Nomad's own job plan
// (diff, placement failures, the job modify index the plan was made against), registers them
// with that index enforced, follows the evaluation and the deployment (or the allocations,
// for jobs without one) with blocking queries, reports drift and rolls back by reverting to
// the previous stable job version. A reconcile of a job that is as declared but whose
// allocations failed has Nomad reschedule them instead (reschedule.go).
//
// While it waits for a job version to become healthy it reports each task failure of its
// allocations once, as it happens ("allocation d877c090: task app exited 1 (restart 2 of
// 3)", from the tasks' Restarting, Not Restarting and driver or hook failure events), and it
// ends the wait early, failing with the cause ("… task app exited 1 after 3 restarts"), once
// no allocation of the deployment can become healthy: every one failed, Nomad will not
// restart it (its task is dead), and it will not reschedule it (the group's reschedule policy
// is spent), or only after the group's progress deadline (the follow-up evaluation's
// WaitUntil), when the deployment has failed anyway, or it is itself the replacement Nomad
// placed for an allocation that failed the same way (the same task's last failure event:
// exit code, signal, message). A version that fails on a fresh placement as it did on the
// first fails for what it is, not where it ran: Nomad's next attempts (without limit for
// services by default, 30 s apart and doubling) would only repeat it until the progress
// deadline, so the wait ends there, saying so ("it replaced allocation 1f0e9a2b, which failed
// the same way; Nomad would keep rescheduling it every 30s or more: giving up"). A replacement
// that failed otherwise keeps the wait going until one fails like the allocation it replaced.
// A job version without a deployment (batch and system jobs) fails as soon as one of its
// allocations fails or is lost.
//
// A Nomad agent that stops answering (an upgrade, a systemd restart: refused or reset
// connections, "No cluster leader" while it starts, a proxy's 502/503/504) does not fail a
// run. Every call of an apply or a rollback is repeated with executor.DefaultBackoff until it
// is answered or Config.DeployTimeout passes, and the progress says so ("Nomad not answering
// for 40 s, retrying", at most every 5 s). A registration is sent once: when its answer was
// lost, Eos reads the job back and, if it moved past the planned modify index and Nomad's plan
// finds it equal to what Eos sent, follows the evaluation that registration created instead
// of sending it again (a revert is checked the same way; stopping a job twice stops it once).
// When the agent is not back before the deadline after a job version was handed over, Apply
// returns an executor.UnknownError naming the version ("version 3 of job grafana-local") and
// the command that tells how it ended (`nomad deployment status ID`, or `nomad job status
// JOB` without a deployment): the runner marks the layer unknown and rolls nothing back.
// Before anything is registered, an agent that does not come back is an ordinary failure. A
// job the scheduler cannot place because no node is ready at all (its client still starting
// after the agent restarted; the plan had placed it) is waited for until Nomad places it
// ("no Nomad node ready to run it yet, waiting"), within Config.DeployTimeout.
//
// It owns the mapping from a unit to its job ID (see JobID), the binding of typed values to a
// template's HCL2 variable blocks (written as HCL literals with hclwrite, never pasted as
// text; Nomad parses the result), and a small status view for `@eos status`.
//
// It imports executor and nothing else of Eos; it never knows it is driven from chat.
package nomad
