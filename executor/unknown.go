package executor

import (
	"errors"
	"strings"
)

// ErrOutcomeUnknown is wrapped by every UnknownError, so callers that only need to know "Eos
// could not see how the layer ended" can use errors.Is.
var ErrOutcomeUnknown = errors.New("outcome unknown")

// UnknownError is a layer's apply whose end Eos could not see: the server that runs it stopped
// answering after the work was handed over (a Salt job submitted to the master, a Nomad job
// registered and its deployment under way) and did not come back within the layer's timeout.
// The work may have finished, failed or still be running, so the runner neither rolls back
// (that would undo something nobody saw) nor calls it applied: it marks the layer
// ResultUnknown, starts no later layer, and the run's post says what may have been applied and
// how to check. Layers return it (wrapped or not) from Apply.
type UnknownError struct {
	// Applied says what may have been applied, for people: "the 3 states of job
	// 20261125231502 on eos-minion".
	Applied string
	// Check is the command that tells how it ended: "salt-run jobs.lookup_jid 20261125231502".
	Check string
	// Err is why Eos could not tell (the last connection error).
	Err error
}

// Unknown wraps err as an apply whose outcome Eos could not see.
func Unknown(applied, check string, err error) *UnknownError {
	return &UnknownError{Applied: applied, Check: check, Err: err}
}

func (e *UnknownError) Error() string {
	if e.Err != nil {
		return "outcome unknown: " + e.Err.Error()
	}
	return "outcome unknown"
}

// Unwrap gives both the underlying error and ErrOutcomeUnknown to errors.Is and errors.As.
func (e *UnknownError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrOutcomeUnknown}
	}
	return []error{e.Err, ErrOutcomeUnknown}
}

// Message is the sentence a run's result shows for the layer: "outcome unknown: salt-api
// stopped answering (…); the 3 states of job J on eos-minion may have been applied".
func (e *UnknownError) Message() string {
	var b strings.Builder
	b.WriteString("outcome unknown")
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	if e.Applied != "" {
		b.WriteString("; " + e.Applied + " may have been applied")
	}
	return b.String()
}
