package nomad

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/hashicorp/nomad/api"

	"github.com/eosbot/eos/executor"
)

// parseRequest is the body of PUT /v1/jobs/parse in the form every Nomad since 1.0 reads.
type parseRequest struct {
	JobHCL       string
	Canonicalize bool
}

// desiredJob is a unit's job as Nomad parsed it from the template and the unit's values.
type desiredJob struct {
	id  string
	job *api.Job
	// sum is the SHA-256 of the job's JSON: equal sums, equal jobs.
	sum string
}

// parseJob binds the unit's values to its template, has Nomad parse it (not canonicalised:
// the agent fills in defaults, region and namespace when it registers or plans the job), and
// gives it the unit's job ID and the meta saying Eos owns it for the unit. A unit whose job
// was adopted declares the adopted job instead of its template.
func (l *Layer) parseJob(ctx context.Context, env string, u executor.Unit) (desiredJob, error) {
	id, err := unitJobID(u.Service, env)
	if err != nil {
		return desiredJob{}, err
	}
	var job api.Job
	if a := u.Nomad.Adopted; a != nil {
		if job, err = adoptedJob(a); err != nil {
			return desiredJob{}, fmt.Errorf("nomad job %s: %w", id, err)
		}
	} else if job, err = l.parseTemplate(ctx, env, u); err != nil {
		return desiredJob{}, fmt.Errorf("nomad job %s: %w", id, err)
	}
	job.ID, job.Name = &id, &id
	markOwned(&job, u.Service, env)
	if l.namespace != "" {
		job.Namespace = &l.namespace
	}
	b, err := json.Marshal(&job)
	if err != nil {
		return desiredJob{}, fmt.Errorf("nomad job %s: encoding the job: %w", id, err)
	}
	sum := sha256.Sum256(b)
	return desiredJob{id: id, job: &job, sum: hex.EncodeToString(sum[:])}, nil
}

// parseTemplate binds the unit's values to its template and has Nomad parse it.
func (l *Layer) parseTemplate(ctx context.Context, env string, u executor.Unit) (api.Job, error) {
	var job api.Job
	text, err := bindVariables(u.Nomad.Template, u.Nomad.Vars, l.eosVars(env, u.Service))
	if err != nil {
		return job, err
	}
	wo := (&api.WriteOptions{}).WithContext(ctx)
	if _, err := l.client.Raw().Write("/v1/jobs/parse", &parseRequest{JobHCL: text}, &job, wo); err != nil {
		return job, fmt.Errorf("parsing the job template: %w", cleanAPIError(err))
	}
	return job, nil
}

// currentJob fetches a registered job; nil without error when there is none.
func (l *Layer) currentJob(ctx context.Context, id string) (*api.Job, error) {
	job, _, err := l.client.Jobs().Info(id, l.query(ctx))
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading nomad job %s: %w", id, err)
	}
	return job, nil
}

// query and write are request options bound to ctx.
func (l *Layer) query(ctx context.Context) *api.QueryOptions {
	return (&api.QueryOptions{}).WithContext(ctx)
}

func (l *Layer) write(ctx context.Context) *api.WriteOptions {
	return (&api.WriteOptions{}).WithContext(ctx)
}

// isNotFound reports whether err is Nomad's 404.
func isNotFound(err error) bool {
	var ure api.UnexpectedResponseError
	return errors.As(err, &ure) && ure.StatusCode() == http.StatusNotFound
}

// deref returns *p, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
