package compile_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot/compile"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/executor"
	"github.com/eosbot/eos/intents"
)

// state is a declared state in memory: what compile reads through its State interface.
type state map[string]compile.Deployed // by "env/service"

func (s state) Declared(env, service string) (compile.Deployed, bool, error) {
	d, ok := s[env+"/"+service]
	return d, ok, nil
}

func (s state) DeclaredIn(env string) ([]compile.Deployed, error) {
	var out []compile.Deployed
	for k, d := range s {
		if strings.HasPrefix(k, env+"/") {
			out = append(out, d)
		}
	}
	return out, nil
}

// declare records spec's units as deployed by run, as a finished run does.
func (s state) declare(spec executor.Spec, run string) {
	for _, u := range spec.Units {
		one := spec
		one.Units = []executor.Unit{u}
		s[spec.Env+"/"+u.Service] = compile.Deployed{RunID: run, Spec: one}
	}
}

func compiler(t *testing.T, st state) (*compile.Compiler, *intents.Parser) {
	t.Helper()
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	return &compile.Compiler{Catalog: cat, State: st, DefaultEnv: "local", SecretsPath: "secret/eos/{env}/{service}, key {name}"},
		intents.NewParser(cat)
}

func compileText(t *testing.T, c *compile.Compiler, p *intents.Parser, text string) (executor.Spec, error) {
	t.Helper()
	in, err := p.Parse(text)
	if err != nil {
		t.Fatalf("parsing %q: %v", text, err)
	}
	return c.Compile(in)
}

// Compile reads the declared state only through State: a dependency declared there is not
// brought in again, a service declared there is not created twice, and one another declared
// service requires is not destroyed without its dependents.
func TestCompileReadsDeclaredStateThroughState(t *testing.T) {
	st := state{}
	c, p := compiler(t, st)
	spec, err := compileText(t, c, p, "@eos create nextcloud --sso")
	if err != nil {
		t.Fatal(err)
	}
	var services []string
	for _, u := range spec.Units {
		services = append(services, u.Service)
	}
	if strings.Join(services, ",") != "authentik,nextcloud" {
		t.Fatalf("create nextcloud --sso on an empty state compiles units %v, want authentik then nextcloud", services)
	}
	st.declare(spec, "r1")

	again, err := compileText(t, c, p, "@eos create nextcloud --sso")
	var r *compile.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Msg, "nextcloud is already deployed in local (run r1)") {
		t.Errorf("create nextcloud again: %v (spec %+v), want a refusal naming run r1", err, again)
	}
	_, err = compileText(t, c, p, "@eos destroy authentik")
	if !errors.As(err, &r) || !strings.Contains(r.Msg, "authentik is required by nextcloud in local (for --sso)") {
		t.Errorf("destroy authentik: %v, want a refusal naming nextcloud", err)
	}
	spec, err = compileText(t, c, p, "@eos destroy authentik --with-dependents")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Units) != 2 || spec.Units[0].Service != "nextcloud" || !spec.Units[0].Destroy || spec.Units[1].Service != "authentik" {
		t.Errorf("destroy authentik --with-dependents compiles %+v, want nextcloud then authentik, both destroyed", spec.Units)
	}
}

// A secret typed in chat is refused as a secret, so the engine takes the message down.
func TestCompileRefusesATypedSecretAsSecret(t *testing.T) {
	c, p := compiler(t, state{})
	_, err := compileText(t, c, p, "@eos create grafana --admin-password hunter2")
	var r *compile.Refusal
	if !errors.As(err, &r) || !r.Secret || strings.Contains(r.Msg, "hunter2") {
		t.Fatalf("create grafana with a typed password: %v, want a secret refusal that does not repeat it", err)
	}
}
