// Package intents owns the grammar of what people say to Eos: a hand-written lexer and parser
// that turn `@eos create nextcloud --sso in staging` into an Intent, the verbs and their
// synonyms, "did you mean" suggestions, and help text generated from the catalog.
//
// It imports catalog (for nouns, flags and their types) and nothing else of Eos; in particular
// never executor. Mistakes come back as *Error, whose text is meant for the channel.
package intents

import (
	"encoding/json"

	"github.com/eosbot/eos/catalog"
)

// Verb is what a person asks Eos to do.
type Verb int

// The built-in verbs. Operations in the catalog bring their own verbs (`resize`), parsed as
// VerbOperation with the verb's word in Intent.Operation.
const (
	VerbNone Verb = iota
	VerbCreate
	VerbDestroy
	VerbUpdate
	VerbStatus
	VerbDrift
	VerbPlan
	VerbRollback
	VerbHistory
	VerbHelp
	VerbCancel
	VerbOperation
	VerbReconcile
	VerbPolicy
	VerbLocks
	VerbWhy
	VerbAdopt
	VerbWeb
	// VerbCount is one past the last verb.
	VerbCount
)

var verbNames = [...]string{"", "create", "destroy", "update", "status", "drift", "plan", "rollback", "history", "help", "cancel", "operation", "reconcile", "policy", "locks", "why", "adopt", "web"}

// String is the verb's canonical word.
func (v Verb) String() string {
	if int(v) < len(verbNames) {
		return verbNames[v]
	}
	return "unknown"
}

// Flag is one flag as given, with its typed value.
type Flag struct {
	Name  string
	Value catalog.Value
}

// Intent is what a person asked for, parsed and type-checked against the catalog.
type Intent struct {
	Verb Verb
	// Operation is the operation's verb word ("resize") when Verb is VerbOperation.
	Operation string
	// Noun is the service, operation noun, plan id or help topic; may be empty (`drift`).
	Noun string
	// Args are the typed positional arguments after the noun.
	Args []catalog.Value
	// Flags are the flags given, in the order typed (defaults are not filled in here).
	Flags []Flag
	// Env is the environment from `in ENV` or `--env ENV`; empty when not given.
	Env string
	// Nodes are the hosts from `on node1,node2`; empty when not given.
	Nodes []string
	// Raw is the text as typed.
	Raw string
}

// Flag returns the value of flag name, if given.
func (in *Intent) Flag(name string) (catalog.Value, bool) {
	for _, f := range in.Flags {
		if f.Name == name {
			return f.Value, true
		}
	}
	return catalog.Value{}, false
}

// VerbWord is the word for the verb as it appears in messages ("create", "resize").
func (in *Intent) VerbWord() string {
	if in.Verb == VerbOperation {
		return in.Operation
	}
	return in.Verb.String()
}

// MarshalJSON writes the intent as `eos parse --json` prints it: verb, noun, args, flags
// (name → typed value), env, nodes.
func (in Intent) MarshalJSON() ([]byte, error) {
	args := make([]any, len(in.Args))
	for i, a := range in.Args {
		args[i] = a.JSON()
	}
	flags := make(map[string]any, len(in.Flags))
	for _, f := range in.Flags {
		flags[f.Name] = f.Value.JSON()
	}
	nodes := in.Nodes
	if nodes == nil {
		nodes = []string{}
	}
	return json.Marshal(struct {
		Verb  string         `json:"verb"`
		Noun  string         `json:"noun"`
		Args  []any          `json:"args"`
		Flags map[string]any `json:"flags"`
		Env   string         `json:"env"`
		Nodes []string       `json:"nodes"`
	}{in.VerbWord(), in.Noun, args, flags, in.Env, nodes})
}

// Error is a mistake in what a person typed. Its text is meant for the channel.
type Error struct {
	// Message says what is wrong, naming the offending word ("unknown service \"nextclod\"").
	Message string `json:"message"`
	// Column is the 1-based column (in runes) where the problem starts.
	Column int `json:"column"`
	// Suggestion is a corrected word or a hint ("nextcloud"); may be empty.
	Suggestion string `json:"suggestion,omitempty"`
	// Secret is the secret flag a mistyped word was taken for ("admin-password" for
	// --ADMIN-PASWORD): never suggested, since it is never typed; the message says so.
	Secret string `json:"secret,omitempty"`
	// Input is the text that was parsed, for the caret display.
	Input string `json:"-"`
}

func (e *Error) Error() string {
	if e.Suggestion != "" {
		return e.Message + " — did you mean \"" + e.Suggestion + "\"?"
	}
	return e.Message
}
