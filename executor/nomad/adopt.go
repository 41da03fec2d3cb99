package nomad

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

var _ executor.Adopter = (*Layer)(nil)

// Adopt declares the unit's job as it runs now (a job scaled or changed by hand): the running
// version is recorded in the unit's Nomad part and declared instead of the template's until a
// request declares the service anew. A job that is missing, stopped or not Eos's for the unit
// cannot be adopted.
func (l *Layer) Adopt(ctx context.Context, env string, u executor.Unit) (executor.Unit, error) {
	if u.Nomad == nil {
		return u, nil
	}
	id, err := unitJobID(u.Service, env)
	if err != nil {
		return u, err
	}
	cur, err := l.currentJob(ctx, id)
	switch {
	case err != nil:
		return u, err
	case cur == nil || deref(cur.Stop):
		return u, fmt.Errorf("nomad job %s is not running: there is nothing to adopt; reconcile to start it", id)
	case !ownedBy(cur, u.Service, env):
		return u, &NotOwnedError{Job: id, Service: u.Service, Env: env}
	}
	raw, err := json.Marshal(runnable(cur))
	if err != nil {
		return u, fmt.Errorf("nomad job %s: encoding the running job: %w", id, err)
	}
	part := *u.Nomad
	part.Adopted = &executor.AdoptedJob{Version: deref(cur.Version), Job: raw}
	u.Nomad = &part
	return u, nil
}

// runnable is job without what Nomad keeps about its registration (status, version, indexes,
// submit time): what registering it again would declare.
func runnable(job *api.Job) *api.Job {
	j := *job
	j.Status, j.StatusDescription, j.Stable, j.Version = nil, nil, nil, nil
	j.SubmitTime, j.CreateIndex, j.ModifyIndex, j.JobModifyIndex = nil, nil, nil, nil
	return &j
}

// adoptedJob is the job an adopt recorded, as declared.
func adoptedJob(a *executor.AdoptedJob) (api.Job, error) {
	var job api.Job
	if err := json.Unmarshal(a.Job, &job); err != nil {
		return job, fmt.Errorf("reading the adopted job (version %d): %w", a.Version, err)
	}
	return job, nil
}

// adoptChanges are the lines of an adopt's preview: each adopted job, by version, or what
// registering it would still change when it differs from what runs.
func adoptChanges(spec executor.Spec, st planState) ([]executor.Change, []string) {
	var changes []executor.Change
	var summaries []string
	for _, up := range st.Units {
		u, ok := unitOf(&spec, up.Service)
		if !ok || u.Nomad == nil || u.Nomad.Adopted == nil {
			continue
		}
		detail := fmt.Sprintf("version %d as it runs becomes the declared job; nothing registered", u.Nomad.Adopted.Version)
		if up.Action != actionNone {
			detail = fmt.Sprintf("version %d adopted, but registering it would still change the job", u.Nomad.Adopted.Version)
		}
		changes = append(changes, executor.Change{Unit: up.Service, Action: executor.NoOp, Address: up.JobID, Detail: detail})
		summaries = append(summaries, "job "+up.JobID+": "+detail)
	}
	return changes, summaries
}
