package executor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"syscall"
	"testing"
	"time"
)

// Each kind of failure is told apart, from the error's chain and from its text alone (what a
// stored run keeps, and what Terraform gives), so the advice can follow the cause.
func TestClassifyTellsRequestServerDiskAndTimeoutApart(t *testing.T) {
	refused := &url.Error{Op: "Post", URL: "http://127.0.0.1:8000/run", Err: &net.OpError{Op: "dial", Net: "tcp",
		Addr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}, Err: syscall.ECONNREFUSED}}
	cases := []struct {
		name  string
		layer LayerName
		err   error
		want  Cause
	}{
		{"a failed Salt state", Salt, errors.New("grafana: pkg.installed on eos-minion failed: No package grafana-x found"), Cause{Kind: CauseRequest}},
		{"a refused connection, typed", Salt, fmt.Errorf("submitting job: %w", refused), Cause{Kind: CauseServer, Server: "salt-api", Address: "127.0.0.1:8000"}},
		{"a refused connection, as text", Terraform, errors.New("Error: Post \"http://10.0.0.5:9090/servers\": dial tcp 10.0.0.5:9090: connect: connection refused"),
			Cause{Kind: CauseServer, Server: "the Terraform provider's API", Address: "10.0.0.5:9090"}},
		{"an unknown host", Nomad, errors.New("Put \"http://nomad.lan:4646/v1/jobs\": dial tcp: lookup nomad.lan: no such host"),
			Cause{Kind: CauseServer, Server: "Nomad", Address: "nomad.lan"}},
		{"a network timeout", Nomad, errors.New("read tcp 10.0.0.1:5000->10.0.0.2:4646: i/o timeout"), Cause{Kind: CauseServer, Server: "Nomad"}},
		{"a server gone past its restart", Salt, Unknown("the 3 states of job J on eos-minion", "salt-run jobs.lookup_jid J", errors.New("salt-api not answering for 2m0s")),
			Cause{Kind: CauseServer, Server: "salt-api"}},
		{"a full disk, typed", Terraform, fmt.Errorf("writing plan: %w", &fs.PathError{Op: "write", Path: "/var/lib/eos/work/eos.tfplan", Err: syscall.ENOSPC}),
			Cause{Kind: CauseDisk, Path: "/var/lib/eos/work/eos.tfplan"}},
		{"a full disk, as text", Salt, errors.New("grafana: file.managed on eos-minion failed: open /srv/grafana/grafana.ini: no space left on device"),
			Cause{Kind: CauseDisk, Path: "/srv/grafana/grafana.ini"}},
		{"a full disk, no path", Nomad, errors.New("alloc failed: no space left on device"), Cause{Kind: CauseDisk}},
		{"a deadline", Terraform, fmt.Errorf("apply: %w", context.DeadlineExceeded), Cause{Kind: CauseTimeout}},
		{"nothing to go on", Salt, errors.New(""), Cause{Kind: CauseUnknown}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Classify(c.layer, c.err); got != c.want {
				t.Errorf("Classify(%q) = %+v, want %+v", c.err, got, c.want)
			}
		})
	}
}

// The runner records the cause with the failed layer; a layer timeout is a timeout, however
// the layer words the error its cancelled context gave it.
func TestRunnerRecordsTheCauseOfAFailedLayer(t *testing.T) {
	for _, c := range []struct {
		name    string
		err     error
		timeout time.Duration
		want    CauseKind
	}{
		{"request", errors.New("Error: Invalid value for variable"), 0, CauseRequest},
		{"server", fmt.Errorf("apply: %w", syscall.ECONNREFUSED), 0, CauseServer},
		{"disk", errors.New("open /tmp/x: no space left on device"), 0, CauseDisk},
		{"timeout", errors.New("context deadline exceeded"), time.Nanosecond, CauseTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			var calls []string
			r, err := NewRunner(RunnerConfig{Rollback: RollbackFailed, LayerTimeout: c.timeout, Layers: []Layer{
				&recLayer{name: Salt, calls: &calls, failWith: c.err},
			}})
			if err != nil {
				t.Fatal(err)
			}
			plan, _ := r.Plan(context.Background(), spec())
			res := r.Apply(context.Background(), plan, nil, Observe(func(Event) {}, nil))
			s := res.Layers[0]
			if s.Status != ResultFailed || s.Cause == nil || s.Cause.Kind != c.want {
				t.Errorf("salt = %+v (cause %+v), want failed with cause %s", s, s.Cause, c.want)
			}
		})
	}
}
