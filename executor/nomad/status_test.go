package nomad

import "testing"

func TestJobStatusLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		st   JobStatus
		want string
	}{
		{"healthy deployment", JobStatus{ID: "web-local", Version: 2, Status: "running", Allocations: map[string]int{"running": 2},
			Deployment: &DeploymentHealth{Status: "successful", Desired: 2, Healthy: 2}}, "web-local v2 running, 2/2 allocations healthy"},
		{"deploying", JobStatus{ID: "web-local", Version: 3, Status: "running", Allocations: map[string]int{"running": 1, "pending": 1},
			Deployment: &DeploymentHealth{Status: "running", Desired: 2, Healthy: 1}}, "web-local v3 running, 1/2 allocations healthy, deploying, 1 pending"},
		{"failed deployment", JobStatus{ID: "web-local", Version: 1, Status: "running", Allocations: map[string]int{"failed": 1},
			Deployment: &DeploymentHealth{Status: "failed", Desired: 1}}, "web-local v1 running, deployment failed, 1 failed"},
		{"no deployment", JobStatus{ID: "batch-local", Version: 0, Status: "running", Allocations: map[string]int{"running": 1, "complete": 4}},
			"batch-local v0 running, 1 running"},
		{"stopped", JobStatus{ID: "web-local", Version: 4, Status: "dead", Stopped: true, Allocations: map[string]int{}}, "web-local v4 stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.st.Line(); got != tc.want {
				t.Errorf("Line() = %q, want %q", got, tc.want)
			}
		})
	}
}
