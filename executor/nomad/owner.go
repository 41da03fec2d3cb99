package nomad

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/nomad/api"
)

// Meta keys Eos sets on every job it registers; a job without them, or with other values, is
// not Eos's for that unit, and Eos refuses to change it.
const (
	MetaService = "eos_service"
	MetaEnv     = "eos_env"
)

// jobIDSeparator joins service and environment in a job ID. Neither name may contain it (see
// checkNames), so the first "--" of an ID always ends the service and two units never share
// a job: "a-b--c" is service a-b in c, "a--b-c" service a in b-c.
const jobIDSeparator = "--"

var (
	// serviceName is the catalog's rule for service names (catalog/manifest.go wordName):
	// lowercase words joined by single hyphens, so no "--" and no hyphen at either end.
	serviceName = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	// envName is the intents' rule for environment names (letters, digits, '-' and '_',
	// lowercased, starting with a letter or digit, at most 63 characters), minus "--".
	envName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)
)

// ErrNotOwned means a job with the unit's ID exists in Nomad but its meta does not say Eos
// owns it for that service and environment. Errors wrapping it are *NotOwnedError.
var ErrNotOwned = errors.New("nomad job not managed by Eos")

// NotOwnedError names a job Eos refuses to change because it is not Eos's for the unit.
type NotOwnedError struct {
	Job, Service, Env string
}

func (e *NotOwnedError) Error() string {
	in := ""
	if e.Env != "" {
		in = " in " + e.Env
	}
	return fmt.Sprintf("job %s exists in Nomad but is not managed by Eos for %s%s: refusing to change it "+
		"(Eos sets meta %s and %s on its own jobs; stop or rename that job, or deploy %s under another environment)",
		e.Job, e.Service, in, MetaService, MetaEnv, e.Service)
}

// Is makes errors.Is(err, ErrNotOwned) true.
func (e *NotOwnedError) Is(target error) bool { return target == ErrNotOwned }

// JobID is the Nomad job ID (and name) of a unit: "<service>--<env>", or the service alone
// when env is empty. The template's own `job "…"` label is replaced, so one cluster can run
// the same blueprint in several environments, and a job's ID always says which unit it is.
// It does not check the names; the layer refuses names checkNames rejects before it uses an
// ID.
func JobID(service, env string) string {
	if env == "" {
		return service
	}
	return service + jobIDSeparator + env
}

// checkNames refuses a service or environment name that could make two units share a job ID.
func checkNames(service, env string) error {
	if !serviceName.MatchString(service) {
		return fmt.Errorf("service name %q cannot name a Nomad job: use lowercase letters and digits in words joined by single hyphens", service)
	}
	if env != "" && (!envName.MatchString(env) || strings.Contains(env, jobIDSeparator)) {
		return fmt.Errorf("environment name %q cannot name a Nomad job: use at most 63 lowercase letters, digits, '-' and '_', starting with a letter or digit, without %q",
			env, jobIDSeparator)
	}
	return nil
}

// unitJobID is JobID for names checkNames accepts.
func unitJobID(service, env string) (string, error) {
	if err := checkNames(service, env); err != nil {
		return "", err
	}
	return JobID(service, env), nil
}

// ownedBy reports whether job's meta says Eos owns it for service in env.
func ownedBy(job *api.Job, service, env string) bool {
	if job == nil || job.Meta == nil {
		return false
	}
	s, okS := job.Meta[MetaService]
	e, okE := job.Meta[MetaEnv]
	return okS && okE && s == service && e == env
}

// checkOwned refuses a job that exists and is not Eos's for service in env; no job is fine.
func checkOwned(job *api.Job, service, env string) error {
	if job == nil || ownedBy(job, service, env) {
		return nil
	}
	return &NotOwnedError{Job: deref(job.ID), Service: service, Env: env}
}

// markOwned sets the ownership meta on a job Eos is about to register, over whatever the
// template says.
func markOwned(job *api.Job, service, env string) {
	if job.Meta == nil {
		job.Meta = map[string]string{}
	}
	job.Meta[MetaService], job.Meta[MetaEnv] = service, env
}
