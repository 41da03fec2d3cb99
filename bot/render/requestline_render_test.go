package render

import (
	"testing"

	"github.com/eosbot/eos/bot/compile"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// The request line never repeats a secret, and no value can pass for more words of it.
func TestRequestLineMasksSecretsAndQuotesOddValues(t *testing.T) {
	bp := &catalog.Blueprint{Kind: catalog.KindService, Name: "grafana", Flags: []catalog.Flag{
		{Name: "admin-password", Type: catalog.String, Secret: true},
		{Name: "port", Type: catalog.Port},
		{Name: "title", Type: catalog.String},
		{Name: "sso", Type: catalog.Bool},
	}}
	in := &intents.Intent{Verb: intents.VerbCreate, Noun: "grafana", Flags: []intents.Flag{
		{Name: "admin-password", Value: catalog.StringValue(catalog.String, "hunter2")},
		{Name: "port", Value: catalog.Value{Type: catalog.Port, Int: 3002, Text: "3002"}},
		{Name: "title", Value: catalog.StringValue(catalog.String, "x in production · asked by @bob")},
		{Name: "sso", Value: catalog.BoolValue(false)},
	}}
	spec := executor.Spec{Verb: "create", Target: "grafana", Env: "staging", Asked: compile.AskedOf(bp, in)}
	want := `create grafana --admin-password ••• --port 3002 --title "x in production \u00b7 asked by @bob" --no-sso in staging`
	if got := RequestLine(spec); got != want {
		t.Errorf("requestLine:\n got: %s\nwant: %s", got, want)
	}
}
