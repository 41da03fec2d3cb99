package nomad

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/eosbot/eos/executor"
)

var _ executor.StatusReporter = (*Layer)(nil)

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

// JobStatus reports the job of service in env; an error wrapping ErrJobNotFound when there is
// none.
func (l *Layer) JobStatus(ctx context.Context, service, env string) (JobStatus, error) {
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

// Status is executor.StatusReporter: one line per unit of spec with a Nomad part, in spec
// order, joined by "; " ("grafana-local v2 running, 2/2 allocations healthy"). A unit with no
// job says so ("grafana-local not in Nomad"); an unreachable agent is an error.
func (l *Layer) Status(ctx context.Context, spec executor.Spec) (string, error) {
	var lines []string
	for _, u := range spec.Units {
		if u.Nomad == nil {
			continue
		}
		st, err := l.JobStatus(ctx, u.Service, spec.Env)
		if errors.Is(err, ErrJobNotFound) {
			lines = append(lines, JobID(u.Service, spec.Env)+" not in Nomad")
			continue
		}
		if err != nil {
			return "", err
		}
		lines = append(lines, st.Line())
	}
	return strings.Join(lines, "; "), nil
}

// Line is the status in a few words: "grafana-local v2 running, 2/2 allocations healthy",
// "grafana-local v3 stopped", "grafana-local v1 running, deployment failed: ... , 1 failed".
func (s JobStatus) Line() string {
	state := s.Status
	if s.Stopped {
		state = "stopped"
	}
	line := fmt.Sprintf("%s v%d %s", s.ID, s.Version, state)
	var parts []string
	if d := s.Deployment; d != nil {
		switch d.Status {
		case "successful", "running":
			parts = append(parts, fmt.Sprintf("%d/%d allocations healthy", d.Healthy, d.Desired))
			if d.Status == "running" {
				parts = append(parts, "deploying")
			}
		default:
			parts = append(parts, "deployment "+d.Status)
		}
	} else if n := s.Allocations["running"]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d running", n))
	}
	for _, k := range sortedKeys(s.Allocations) {
		if k != "running" && k != "complete" && s.Allocations[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", s.Allocations[k], k))
		}
	}
	if len(parts) == 0 {
		return line
	}
	return line + ", " + strings.Join(parts, ", ")
}
