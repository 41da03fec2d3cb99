package executor

import (
	"errors"
	"strings"
)

// ErrNotApplied is wrapped by every HaltError, so callers that only need to know "the run was
// stopped, not failed by the layer" can use errors.Is.
var ErrNotApplied = errors.New("stopped without a layer failure")

// HaltError is a layer's apply that stopped for a reason that is not the layer's own failure:
// Eos's saved plan is stale or gone, the state lock was refused or lost, or the layer can tell
// that it changed nothing before it failed. Rolling back after such a stop would apply a state
// nobody approved for this run, so the runner never does: it stops the run, says why, and marks
// the layer ResultHalted. Layers return it (wrapped or not) from Apply.
type HaltError struct {
	// Reason is why the layer stopped, for people: "the saved plan is stale (state changed
	// since it was planned)".
	Reason string
	// Untouched is true when the layer knows it changed nothing in this apply.
	Untouched bool
	// Err is the underlying error, if any.
	Err error
}

// Halt wraps err as a stop that is not the layer's failure; untouched says the layer changed
// nothing before it stopped.
func Halt(reason string, untouched bool, err error) *HaltError {
	return &HaltError{Reason: reason, Untouched: untouched, Err: err}
}

// Error is the underlying error's text (Reason when there is none); Message is the sentence
// for the run's result.
func (e *HaltError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return e.Reason
}

// Unwrap gives both the underlying error and ErrNotApplied to errors.Is and errors.As.
func (e *HaltError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrNotApplied}
	}
	return []error{e.Err, ErrNotApplied}
}

// Message is the sentence a run's result shows for the halted layer:
// "stopped before changing anything: the saved plan is stale (…); nothing was rolled back".
func (e *HaltError) Message() string {
	reason := e.Reason
	if reason == "" && e.Err != nil {
		reason = e.Err.Error()
	}
	reason = strings.TrimSuffix(reason, "; plan again")
	if e.Untouched {
		return "stopped before changing anything: " + reason + "; nothing was rolled back"
	}
	return "stopped: " + reason + "; what was applied before it stays, nothing was rolled back"
}
