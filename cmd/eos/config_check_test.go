package main

import (
	"bytes"
	"github.com/eosbot/eos/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/bot"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/intents"
)

// refused loads text as a configuration file and runs the start-up checks on it; it fails the
// test unless they refuse it with every one of want, each led by the file and line.
func refused(t *testing.T, text string, want ...string) string {
	t.Helper()
	path := writeTemp(t, text)
	cfg, err := loadConfig(path)
	if err == nil {
		_, err = cfg.validate(&bytes.Buffer{})
	}
	if err == nil {
		t.Fatalf("accepted:\n%s", text)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the refusal lacks %q:\n%v", w, err)
		}
	}
	return err.Error()
}

// accepted loads text and runs the start-up checks on it, failing the test on any refusal.
func accepted(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := loadConfig(writeTemp(t, text))
	if err == nil {
		_, err = cfg.validate(&bytes.Buffer{})
	}
	if err != nil {
		t.Fatalf("refused: %v\n%s", err, text)
	}
	return cfg
}

// The verbs list every verb block may name, as a refusal writes it.
var verbList = "A verb block can name: create, destroy, update, reconcile, adopt, rollback, resize, snooze"

// verb "remove" { approvals = 3 } was shown by @eos policy and never applied: destroying
// needed one approval. A synonym names the verb to write and its synonyms.
func TestConfigRefusesAVerbBlockNamedBySynonym(t *testing.T) {
	refused(t, `policy "default" {
  verb "remove" { approvals = 3 }
}`, `eos.hcl:2: verb "remove": write verb "destroy" (remove, delete and uninstall are its synonyms)`)
	refused(t, `policy "default" {
  verb "upgrade" { approvals = 3 }
}`, `eos.hcl:2: verb "upgrade": write verb "update" (upgrade is its synonym)`)
	refused(t, `policy "default" {
  verb "Deploy" { approvals = 3 }
}`, `verb "Deploy": write verb "create" (deploy, install and add are its synonyms)`)
}

// Another spelling of a verb is refused with the spelling to use.
func TestConfigRefusesAVerbBlockInAnotherCase(t *testing.T) {
	refused(t, `policy "default" {
  verb "Destroy" { approvals = 3 }
}`, `eos.hcl:2: verb "Destroy": write verb "destroy" (verbs are written in lower case)`)
	refused(t, `policy "default" {
  verb "SNOOZE" { requesters = ["bob"] }
}`, `verb "SNOOZE": write verb "snooze"`)
}

// A word that is no verb gets a did-you-mean and the list.
func TestConfigRefusesAnUnknownVerbBlock(t *testing.T) {
	refused(t, `policy "default" {
  verb "destory" { approvals = 3 }
}`, `eos.hcl:2: verb "destory": Eos has no such verb — did you mean verb "destroy"? `+verbList)
	// A near-miss of a synonym suggests the verb itself.
	refused(t, `policy "default" {
  verb "remvoe" { approvals = 3 }
}`, `did you mean verb "destroy"?`)
	refused(t, `policy "default" {
  verb "frobnicate" { approvals = 3 }
}`, `verb "frobnicate": Eos has no such verb. `+verbList)
}

// A verb that asks for no plan has nothing a rule could judge.
func TestConfigRefusesAVerbBlockForAVerbWithoutApproval(t *testing.T) {
	refused(t, `policy "default" {
  verb "status" { approvals = 3 }
}`, `verb "status": status asks for no approval, so a rule for it would never apply. `+verbList)
}

// Every verb the policy judges is accepted as the grammar spells it, operations and snooze
// included, and the list comes from the grammar: a catalog's own operation verb is a verb.
func TestConfigAcceptsEveryPolicyVerb(t *testing.T) {
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	var blocks strings.Builder
	for _, v := range bot.PolicyVerbs(intents.NewParser(cat)) {
		blocks.WriteString("  verb \"" + v.Word + "\" { approvals = 2 }\n")
	}
	cfg := accepted(t, "policy \"default\" {\n"+blocks.String()+"}")
	p, err := cfg.policy()
	if err != nil {
		t.Fatal(err)
	}
	if ep := p.For("local", "resize"); ep.Approvals != 2 {
		t.Errorf("resize's rule is not applied: %+v", ep)
	}
}

// A risk block Eos would not match is refused like a verb block.
func TestConfigRefusesAnUnknownRiskBlock(t *testing.T) {
	refused(t, `policy "default" {
  risk "dataloss" { approvals = 2 }
}`, `eos.hcl:2: risk "dataloss": Eos knows no such risk — did you mean risk "data-loss"? A risk block can name: data-loss`)
	refused(t, `policy "default" {
  risk "Data-Loss" { approvals = 2 }
}`, `risk "Data-Loss": write risk "data-loss" (risks are written in lower case).`)
}

// Two blocks for one environment, verb or risk: the second would silently replace the first.
func TestConfigRefusesARuleWrittenTwice(t *testing.T) {
	refused(t, `policy "production" {
  approvals = 2
}
policy "production" {
  approvers = ["bob"]
}`, `eos.hcl:4: policy "production" is written twice (also at `)
	refused(t, `policy "production" {
  verb "destroy" { approvals = 2 }
  verb "destroy" { approvers = ["bob"] }
}`, `eos.hcl:3: verb "destroy" is written twice in policy "production"`)
}

// policy "Default" or policy "" would be an environment of that name, never the default rule.
func TestConfigRefusesAPolicyLabelThatIsNotTheDefault(t *testing.T) {
	refused(t, `policy "Default" {
  approvals = 2
}`, `eos.hcl:1: policy "Default": write policy "default" for every environment without a block of its own`)
	refused(t, `policy "" {
  approvals = 2
}`, `eos.hcl:1: policy "" names no environment`)
}

// approvals = -1 would quietly mean one.
func TestConfigRefusesNegativeApprovals(t *testing.T) {
	refused(t, `policy "production" {
  verb "destroy" { approvals = -1 }
}`, `eos.hcl:2: approvals = -1 in verb "destroy" of policy "production": write 1 or more`)
}

// With an environments list, a policy block, a variant or a digest for any other environment
// is a typo that would leave the real one under the default rule.
func TestConfigRefusesUndeclaredEnvironmentLabels(t *testing.T) {
	refused(t, `environments = ["staging", "production"]
policy "prodution" {
  approvals = 2
}`, `eos.hcl:2: policy "prodution": "prodution" is not a declared environment — did you mean "production"? Environments: local, production, staging (environments = [...] at `, `add "prodution" to the list`)
	refused(t, `environments = ["production"]
terraform {
  variants = { prod = "production" }
}`, `eos.hcl:3: terraform variants: "prod": "prod" is not a declared environment`)
	refused(t, `environments = ["production"]
digest "d" {
  platform = "console"
  channel  = "local"
  schedule = "0 8 * * *"
  envs     = ["staging"]
}`, `eos.hcl:6: digest "d": envs "staging": "staging" is not a declared environment`)
	accepted(t, `environments = ["staging", "production"]
default_env = "staging"
policy "production" { approvals = 2 }
policy "default" {}`)
}

// Without a list, an environment named one edit away from another is refused once; declaring
// both is the way to mean it.
func TestConfigRefusesAnEnvironmentThatMisspellsAnother(t *testing.T) {
	msg := refused(t, `terraform {
  variants = { production = "production" }
}
policy "prodution" {
  approvals = 2
}`, `eos.hcl:4: policy "prodution" and terraform variants: "production" at `, `eos.hcl:2 name environments "prodution" and "production", one a likely misspelling of the other; fix it, or if both are environments, declare them: environments = ["production", "prodution"]`)
	if strings.Count(msg, "misspelling") != 1 {
		t.Errorf("a pair is refused once:\n%s", msg)
	}
	refused(t, `policy "locl" { approvals = 2 }`, `policy "locl" and default_env "local" name environments "locl" and "local"`)
	refused(t, `environments = ["production"]
default_env = "staging"
policy "Production" { approvals = 2 }`, `policy "Production": "Production" is not a declared environment — did you mean "production"?`)
	refused(t, `terraform {
  variants = { production = "production" }
}
policy "Production" { approvals = 2 }`, `policy "Production" and terraform variants: "production" at `)
	accepted(t, `environments = ["production", "prodution"]
policy "prodution" { approvals = 2 }
policy "production" { approvals = 2 }`)
}

// An entry of a platform Eos does not serve, or of no platform at all, could admit nobody.
func TestConfigRefusesEntriesOfPlatformsNotConfigured(t *testing.T) {
	refused(t, `mattermost { url = "https://chat.example.org" }
policy "production" {
  approvers = ["bob", "slack:group:sre"]
}`, `eos.hcl:3: approvers entry "slack:group:sre" in policy "production": slack is not configured here (serving: mattermost), so the entry would admit nobody; configure a slack block or remove the entry`)
	refused(t, `policy "production" {
  verb "destroy" { requesters = ["discord:bob"] }
}`, `eos.hcl:2: requesters entry "discord:bob" in verb "destroy" of policy "production": discord is not configured here (serving: console)`)
	refused(t, `policy "production" {
  approvers = ["teams:bob"]
}`, `approvers entry "teams:bob" in policy "production": "teams" is not a platform; write "bob" for whoever holds the handle on any platform, or prefix it with one of console, mattermost, slack, discord`)
	refused(t, `policy "production" {
  risk "data-loss" { approvers = ["mattermost:group:dba"] }
}`, `approvers entry "mattermost:group:dba" in risk "data-loss" of policy "production": mattermost is not configured here`)
	accepted(t, `mattermost { url = "https://chat.example.org" }
slack {}
policy "production" {
  approvers = ["bob", "slack:group:sre", "mattermost:group:sre", "group:dba"]
}`)
}

// On the console alone, a group is one of console { groups }: any other admits nobody.
func TestConfigRefusesGroupsTheConsoleLacks(t *testing.T) {
	refused(t, `console { groups = { dev = ["alice"] } }
policy "production" {
  approvers = ["group:sre"]
}`, `eos.hcl:3: approvers entry "group:sre" in policy "production": the console has no group "sre" (its groups: dev), so the entry would admit nobody; define it: console { groups = { sre = ["alice"] } }`)
	refused(t, `mattermost { url = "https://chat.example.org" }
console { enabled = true }
policy "production" {
  approvers = ["console:group:sre"]
}`, `the console has no group "sre"`)
	accepted(t, `console { groups = { sre = ["bob"] } }
policy "production" {
  approvers = ["group:sre", "console:group:sre"]
}`)
}

// The HCL decoding refuses unknown settings and blocks anywhere, naming the file and line.
func TestConfigRefusesUnknownSettingsAndBlocks(t *testing.T) {
	for name, tc := range map[string]struct{ text, want string }{
		"top-level setting":  {`defualt_env = "staging"`, `eos.hcl:1,1-12: Unsupported argument; An argument named "defualt_env" is not expected here. Did you mean "default_env"?`},
		"top-level block":    {`polcy "production" {}`, `eos.hcl:1,1-6: Unsupported block type; Blocks of type "polcy" are not expected here. Did you mean "policy"?`},
		"setting in policy":  {"policy \"production\" {\n  approver = [\"bob\"]\n}", `eos.hcl:2,3-11: Unsupported argument; An argument named "approver" is not expected here. Did you mean "approvers"?`},
		"setting in verb":    {"policy \"production\" {\n  verb \"destroy\" {\n    ttl = \"5m\"\n  }\n}", `eos.hcl:3,5-8: Unsupported argument; An argument named "ttl" is not expected here.`},
		"block in policy":    {"policy \"production\" {\n  verbs \"destroy\" {}\n}", `eos.hcl:2,3-8: Unsupported block type; Blocks of type "verbs" are not expected here. Did you mean "verb"?`},
		"setting in risk":    {"policy \"production\" {\n  risk \"data-loss\" {\n    requesters = [\"bob\"]\n  }\n}", `eos.hcl:3,5-15: Unsupported argument; An argument named "requesters" is not expected here.`},
		"setting in console": {"console {\n  group = {}\n}", `eos.hcl:2,3-8: Unsupported argument; An argument named "group" is not expected here. Did you mean "groups"?`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := loadConfig(writeTemp(t, tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %q", err, tc.want)
			}
		})
	}
}

// eos serve and eos chat refuse what eos config check refuses, before opening the store or
// connecting anything.
func TestServeRefusesWhatConfigCheckRefuses(t *testing.T) {
	path := writeTemp(t, `listen = "off"
policy "default" {
  verb "remove" { approvals = 3 }
}`)
	for _, cmd := range [][]string{{"serve"}, {"chat"}, {"config", "check"}} {
		data := t.TempDir()
		t.Setenv("EOS_DATA_DIR", data)
		root := rootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetIn(strings.NewReader(""))
		root.SetArgs(append(cmd, "--config", path))
		err := root.Execute()
		if err == nil || !strings.Contains(err.Error(), `verb "remove": write verb "destroy"`) {
			t.Errorf("eos %s: err = %v\n%s", strings.Join(cmd, " "), err, out.String())
		}
		if entries, _ := os.ReadDir(data); len(entries) > 0 {
			t.Errorf("eos %s wrote %v into the data directory before refusing", strings.Join(cmd, " "), entries)
		}
	}
}

// eos config check on the sample configuration prints the policy it gives, per environment
// and verb, with the risk rule (testdata/config_check.golden; go test -update rewrites it).
func TestConfigCheckPrintsTheEffectivePolicy(t *testing.T) {
	t.Setenv("EOS_DATA_DIR", t.TempDir())
	root := rootCmd()
	var out, errs bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errs)
	root.SetArgs([]string{"config", "check", "--config", "../../examples/eos.hcl"})
	if err := root.Execute(); err != nil {
		t.Fatalf("the sample is refused: %v\n%s", err, errs.String())
	}
	if !strings.Contains(errs.String(), "warning: catalog_dirs: /etc/eos/blueprints is not on this machine") {
		t.Errorf("the missing catalog folder is not said: %q", errs.String())
	}
	golden.Check(t, filepath.Join("testdata", "config_check.golden"), out.Bytes())
}
