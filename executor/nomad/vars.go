package nomad

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// bindVariables returns the job template with each variable in vars bound as the default of
// its `variable` block, written as an HCL literal by hclwrite (quotes, newlines, "${" and
// "%{" are escaped), so Nomad parses the job with exactly these values. The rest of the
// template is kept byte for byte.
//
// Defaults rather than the parse request's Variables field: Nomad 1.4's /v1/jobs/parse
// accepts only JobHCL, HCLv1 and Canonicalize and silently drops Variables (added in later
// releases), while a default is honoured by every Nomad with HCL2 jobs, with the variable's
// type constraint and validation rules applied as usual.
//
// A value in vars for a variable the template does not declare is an error, as Nomad's own
// -var is. The values in eos (what Eos itself offers every template, see EosVariables) are
// bound only to templates that declare them, and a blueprint's own value of the same name is
// an error: the blueprint cannot point a job at another unit's secrets.
func bindVariables(template string, vars, eos map[string]any) (string, error) {
	f, diags := hclwrite.ParseConfig([]byte(template), "job.nomad.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		return "", fmt.Errorf("parsing the job template: %s", diags.Error())
	}
	declared := map[string]*hclwrite.Body{}
	for _, b := range f.Body().Blocks() {
		if b.Type() == "variable" && len(b.Labels()) == 1 {
			declared[b.Labels()[0]] = b.Body()
		}
	}
	all := make(map[string]any, len(vars)+len(eos))
	for name, v := range vars {
		if _, ok := declared[name]; !ok {
			return "", fmt.Errorf("the job template declares no variable %q", name)
		}
		if _, ok := eos[name]; ok {
			return "", fmt.Errorf("variable %q is set by Eos; the blueprint must not set it", name)
		}
		all[name] = v
	}
	for name, v := range eos {
		if _, ok := declared[name]; ok {
			all[name] = v
		}
	}
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		body := declared[name]
		v, err := ctyValue(all[name])
		if err != nil {
			return "", fmt.Errorf("variable %q: %w", name, err)
		}
		body.SetAttributeRaw("default", hclwrite.TokensForValue(v))
	}
	return string(f.Bytes()), nil
}

// ctyValue converts a JSON-like Go value (string, bool, numbers, []any, map[string]any, or
// anything encoding/json can marshal) to the cty value of the same shape. Numbers keep their
// exact decimal text; the variable's type constraint converts tuples to lists and objects to
// maps when Nomad reads the default.
func ctyValue(v any) (cty.Value, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return cty.NilVal, fmt.Errorf("encoding the value: %w", err)
	}
	ty, err := ctyjson.ImpliedType(b)
	if err != nil {
		return cty.NilVal, fmt.Errorf("typing the value: %w", err)
	}
	val, err := ctyjson.Unmarshal(b, ty)
	if err != nil {
		return cty.NilVal, fmt.Errorf("converting the value: %w", err)
	}
	return val, nil
}

// VaultSecretsPathVar is the HCL2 variable Eos binds in every job template that declares it:
// the path a Nomad `template` reads the unit's secrets entry at, one key per secret, like
// {{ with secret var.vault_secrets_path }}{{ .Data.data.admin_password }}{{ end }}. It is ""
// when the layer has no Config.SecretsPath (Eos runs without Vault).
const VaultSecretsPathVar = "vault_secrets_path"

// eosVars are the values Eos offers every template of the unit service in env.
func (l *Layer) eosVars(env, service string) map[string]any {
	path := strings.NewReplacer("{env}", env, "{service}", service).Replace(l.secretsPath)
	return map[string]any{VaultSecretsPathVar: path}
}
