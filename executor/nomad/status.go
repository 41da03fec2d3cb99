package nomad

import (
	"context"
	"fmt"
)

// JobStatus is a unit's job as Nomad runs it, for `@eos status`.
type JobStatus struct {
	// ID is the job's ID (JobID of the unit).
	ID string `json:"id"`
	// Version is the job's current version; Stable says its deployment succeeded.
	Version uint64 `json:"version"`
	Stable  bool   `json:"stable"`
	// Status is Nomad's job status: "pending", "running" or "dead".
	Status string `json:"status"`
	// Stopped says the job was deregistered (it stays listed until garbage-collected).
	Stopped bool `json:"stopped"`
	// Allocations counts the current version's allocations by client status ("running": 2).
	Allocations map[string]int `json:"allocations"`
	// Deployment is the latest deployment of the current version; nil when it has none.
	Deployment *DeploymentHealth `json:"deployment,omitempty"`
}

// DeploymentHealth is a deployment's progress, summed over task groups.
type DeploymentHealth struct {
	ID string `json:"id"`
	// Status is Nomad's: "running", "successful", "failed", "cancelled", "paused", ...
	Status      string `json:"status"`
	Description string `json:"description,omitempty"`
	Desired     int    `json:"desired"`
	Placed      int    `json:"placed"`
	Healthy     int    `json:"healthy"`
	Unhealthy   int    `json:"unhealthy"`
}

// Status reports the job of service in env; an error wrapping ErrJobNotFound when there is
// none.
func (l *Layer) Status(ctx context.Context, service, env string) (JobStatus, error) {
	id := JobID(service, env)
	job, err := l.currentJob(ctx, id)
	if err != nil {
		return JobStatus{}, err
	}
	if job == nil {
		return JobStatus{}, fmt.Errorf("%w: %s", ErrJobNotFound, id)
	}
	st := JobStatus{
		ID: id, Version: deref(job.Version), Stable: deref(job.Stable), Status: deref(job.Status),
		Stopped: deref(job.Stop), Allocations: map[string]int{},
	}
	stubs, _, err := l.client.Jobs().Allocations(id, false, l.query(ctx))
	if err != nil {
		return JobStatus{}, fmt.Errorf("reading the allocations of nomad job %s: %w", id, err)
	}
	for _, a := range stubs {
		if a != nil && a.JobVersion == st.Version {
			st.Allocations[a.ClientStatus]++
		}
	}
	d, _, err := l.client.Jobs().LatestDeployment(id, l.query(ctx))
	if err != nil {
		return JobStatus{}, fmt.Errorf("reading the latest deployment of nomad job %s: %w", id, err)
	}
	if d != nil && d.JobVersion == st.Version && d.JobCreateIndex == deref(job.CreateIndex) {
		h := &DeploymentHealth{ID: d.ID, Status: d.Status, Description: d.StatusDescription}
		for _, s := range d.TaskGroups {
			if s != nil {
				h.Desired += s.DesiredTotal
				h.Placed += s.PlacedAllocs
				h.Healthy += s.HealthyAllocs
				h.Unhealthy += s.UnhealthyAllocs
			}
		}
		st.Deployment = h
	}
	return st, nil
}
