package nomad

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/nomad/api"
)

var (
	// ErrChangedSincePlan means a job was changed in Nomad after the plan was made; the plan
	// must be made again. Errors wrapping it are *ChangedError.
	ErrChangedSincePlan = errors.New("nomad job changed since the plan")
	// ErrStalePlan means the plan no longer describes the spec (the job parses differently
	// now, or the plan is not this layer's); plan again.
	ErrStalePlan = errors.New("nomad plan is stale")
	// ErrJobNotFound means the unit has no job in Nomad.
	ErrJobNotFound = errors.New("nomad job not found")
)

// ChangedError says which job changed since the plan, from which modify index to which.
type ChangedError struct {
	Job     string
	Planned uint64
	// Now is the job's modify index when Apply ran; 0 when the job is gone.
	Now uint64
}

func (e *ChangedError) Error() string {
	now := fmt.Sprint(e.Now)
	if e.Now == 0 {
		now = "removed"
	}
	return fmt.Sprintf("job %s changed since the plan (index %d → %s); plan again", e.Job, e.Planned, now)
}

// Is makes errors.Is(err, ErrChangedSincePlan) true.
func (e *ChangedError) Is(target error) bool { return target == ErrChangedSincePlan }

// enforceIndexPrefix starts the error Nomad returns when a register's enforced modify index
// does not match (nomad/job_endpoint.go RegisterEnforceIndexErrPrefix).
const enforceIndexPrefix = "Enforcing job modify index"

func isIndexConflict(err error) bool {
	return err != nil && strings.Contains(err.Error(), enforceIndexPrefix)
}

// errorsOccurred is the header of a go-multierror list ("2 errors occurred:").
var errorsOccurred = regexp.MustCompile(`\d+ errors? occurred:$`)

// apiError is an error from the Nomad API with the agent's message on one line: Nomad's
// validation errors arrive as indented, nested "N errors occurred:" lists, unreadable in chat.
type apiError struct {
	msg string
	err error
}

func (e *apiError) Error() string { return e.msg }
func (e *apiError) Unwrap() error { return e.err }

// cleanAPIError returns err with a one-line message when it carries a multi-line body from
// the agent, else err itself.
func cleanAPIError(err error) error {
	var ure api.UnexpectedResponseError
	if !errors.As(err, &ure) || !ure.HasBody() || !strings.Contains(strings.TrimSpace(ure.Body()), "\n") {
		return err
	}
	var b strings.Builder
	for _, line := range strings.Split(ure.Body(), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "*"))
		line = strings.TrimSpace(errorsOccurred.ReplaceAllString(line, ""))
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			if strings.HasSuffix(b.String(), ":") {
				b.WriteString(" ")
			} else {
				b.WriteString("; ")
			}
		}
		b.WriteString(line)
	}
	return &apiError{msg: fmt.Sprintf("Nomad refused it (%d): %s", ure.StatusCode(), b.String()), err: err}
}
