package intents

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/eosbot/eos/catalog"
)

// A secret is masked in every spelling of its flag that Eos understands: the two spellings
// that were answered with the value in clear (a phrase, and a shortened flag the suggester
// corrects), and the forms around them.
func TestSecretIsMaskedInEverySpelling(t *testing.T) {
	p := NewParser(testCatalog(t))
	const secret = "hunter2"
	for _, text := range []string{
		"@eos create grafana with admin-password hunter2", // reproduced: the phrase form
		"@eos create grafana --admin-pass hunter2",        // reproduced: a prefix "did you mean" completes
		"@eos create grafana with admin-password=hunter2",
		"@eos create grafana with sso and admin-password hunter2",
		"@eos create grafana admin-password: hunter2",
		"@eos create grafana admin-password:hunter2",
		"@eos create grafana admin-password=hunter2",
		"@eos create grafana admin-password hunter2",
		"@eos create grafana --ADMIN_PASSWORD=hunter2",
		"@eos create grafana --admin_pass_word hunter2",                   // `_` for `-`, more than one edit
		"@eos create grafana --no-admin-password hunter2",                 // negated
		"@eos create grafana --admin-password= hunter2",                   // `=` then a space
		"@eos create grafana --admin-password --hunter2",                  // a value that looks like a flag
		"@eos create grafana --admin-password —hunter2",                   // or like an em-dash flag
		"@eos create grafana --admin-password x --admin-password hunter2", // given twice
		"@eos create grafana --admin-password correct horse hunter2 staple",
		"@eos create grafnaa --api-token hunter2",   // unknown service, a flag named like a secret
		"@eos create grafana with api-key hunter2",  // a phrase named like a secret
		"@eos create grafana --signing-key hunter2", // key
		"@eos resize lvm data +1G --luks-passphrase hunter2 --colour x",
		"@eos create grafana --admin-password:hunter2",      // `:` inside a flag
		"@eos create grafana --admin-password: hunter2",     // `:` ending one
		`@eos create grafana with "admin-password=hunter2"`, // a quoted NAME=VALUE
		`@eos create grafana "admin-password" hunter2`,      // a quoted name
		"@eos create grafana -admin-password hunter2",       // one dash
		"@eos create grafana with admin password hunter2",   // a space for the dash
		"@eos create grafana --db-pass hunter2",             // pass, pwd: named like a secret
		"@eos create grafana --root-pwd=hunter2",
		"@eos create grafana --admin-password 'hunter2",   // an unterminated quote
		"@eos create grafana --admin-password hunter2 'x", // one after the value
		"@eos create grafana password hunter2",            // a word that says it, no flag's name
		"@eos create grafana Password: hunter2",
		"@eos create grafana --port 3000 token hunter2",
		"@eos create grafana passphrase correct horse hunter2",
	} {
		masked, found := p.MaskSecrets(text)
		if !found || strings.Contains(masked, secret) {
			t.Errorf("MaskSecrets(%q) = %q, %v", text, masked, found)
		}
		_, err := p.Parse(text)
		var pe *Error
		if errors.As(err, &pe) && (strings.Contains(pe.Error(), secret) || strings.Contains(pe.Caret(), secret)) {
			t.Errorf("%q: the error repeats the secret:\n%s\n%s", text, pe.Error(), pe.Caret())
		}
	}
}

// Nothing else is masked: known flags that are not secret, their values, and words that only
// resemble a secret flag's name as a service or a value.
func TestMaskSecretsLeavesOtherValues(t *testing.T) {
	p := NewParser(testCatalog(t))
	for _, text := range []string{
		"@eos create grafana --port 3000 --domain grafana.example.org in staging",
		"@eos destroy nextcloud --purge-secrets in staging",
		"@eos create nextcloud with sso and distributed-storage on node1",
		"@eos resize lvm data-nextcloud +50G --vg vg1",
		"@eos create nextcloud --domain=admin.example.org",
		"@eos resize lvm passdb +50G --vg vg1", // a name that contains a secret word
		"@eos help password",
	} {
		if masked, found := p.MaskSecrets(text); found || masked != text {
			t.Errorf("MaskSecrets(%q) = %q, %v; want it unchanged", text, masked, found)
		}
	}
}

// The secret flag of an operation is a secret like a service's: refused when typed, masked in
// every spelling.
func TestOperationSecretFlagIsMasked(t *testing.T) {
	cat := catalog.New(&catalog.Blueprint{
		Kind: catalog.KindOperation, Verb: "rotate", Name: "luks", Description: "re-key an encrypted volume",
		Args:  []catalog.Arg{{Name: "name", Type: catalog.String, Description: "the volume"}},
		Flags: []catalog.Flag{{Name: "unlock-phrase", Type: catalog.String, Secret: true, Description: "the current key"}},
	})
	p := NewParser(cat)
	in, err := p.Parse("@eos rotate luks data --unlock-phrase hunter2")
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := in.Flag("unlock-phrase"); !ok || v.Text != "hunter2" {
		t.Fatalf("the operation's secret flag did not resolve: %+v", in.Flags)
	}
	for _, text := range []string{
		"@eos rotate luks data --unlock-phrase hunter2",
		"@eos rotate luks data --unlock-phrse hunter2",
		"@eos rotate luks data --unlock hunter2",
		"@eos rotate luks data with unlock_phrase hunter2",
	} {
		if masked, found := p.MaskSecrets(text); !found || strings.Contains(masked, "hunter2") {
			t.Errorf("MaskSecrets(%q) = %q, %v", text, masked, found)
		}
	}
}

// A blueprint may spell a secret flag with `_`; every spelling of it is masked all the same,
// its own included, where another mistake in the message stops the parser.
func TestASecretFlagNamedWithUnderscoresIsMasked(t *testing.T) {
	p := NewParser(catalog.New(&catalog.Blueprint{
		Kind: catalog.KindService, Name: "vaultwarden", Description: "passwords",
		Flags: []catalog.Flag{{Name: "smtp_relay_auth_value", Type: catalog.String, Secret: true, Description: "a secret"}},
	}))
	for _, text := range []string{
		"@eos create vaultwarden --smtp_relay_auth_value hunter2 --colour x",
		"@eos create vaultwarden --smtp-relay-auth-value hunter2 --colour x",
		"@eos create vaultwarden with SMTP-relay-auth-value hunter2",
	} {
		if masked, found := p.MaskSecrets(text); !found || strings.Contains(masked, "hunter2") {
			t.Errorf("MaskSecrets(%q) = %q, %v", text, masked, found)
		}
	}
}

// secretForms are the ways a flag and its value can be typed; %[1]s is the spelling of the
// flag's name, %[2]s the value.
var secretForms = []string{
	"--%[1]s %[2]s",
	"--%[1]s=%[2]s",
	"—%[1]s %[2]s",
	"--%[1]s '%[2]s and more'",
	"with %[1]s %[2]s",
	"with %[1]s=%[2]s",
	"%[1]s: %[2]s",
	"%[1]s=%[2]s",
	"%[1]s %[2]s",
	"--%[1]s %[2]s in staging",
}

// spellings are ways to type name that are not name itself: other cases, `_` for `-`, a
// negation, and every single edit (deletion, transposition, substitution, insertion) and
// prefix, a few of two edits. Which of them Eos understands is for the parser to say.
func spellings(name string) []string {
	out := []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:],
		strings.ReplaceAll(name, "-", "_"), strings.ToUpper(strings.ReplaceAll(name, "-", "_")), "no-" + name}
	r := []rune(name)
	for i := range r {
		out = append(out, string(r[:i])+string(r[i+1:]))                               // deletion
		out = append(out, string(r[:i])+"x"+string(r[i+1:]))                           // substitution
		out = append(out, string(r[:i])+"q"+string(r[i:]))                             // insertion
		out = append(out, string(r[:i])+strings.ToUpper(string(r[i]))+string(r[i+1:])) // one capital
		if i+1 < len(r) {
			out = append(out, string(r[:i])+string(r[i+1])+string(r[i])+string(r[i+2:])) // transposition
		}
		if i >= 3 {
			out = append(out, string(r[:i])) // prefix
		}
		if i+2 < len(r) {
			out = append(out, string(r[:i])+string(r[i+2:])) // two deletions
		}
	}
	return out
}

// understood reports whether the parser takes word for the secret flag name of service, as
// written with dashes: resolved to it, or "did you mean --name?".
func understood(p *Parser, service, word, name string) bool {
	in, err := p.Parse("@eos create " + service + " --" + word + " x")
	var pe *Error
	switch {
	case err == nil:
		_, ok := in.Flag(name)
		return ok
	case errors.As(err, &pe):
		return pe.Suggestion == "--"+name || pe.Suggestion == "--no-"+name || pe.Secret == name
	}
	return false
}

// The value of a secret flag is masked in every spelling the parser understands as that flag
// and in every form (flag, `=`, phrase, `:`), and the parser's error never repeats it. The seed
// corpus is every generated spelling of every secret flag of the catalogs' services; the
// fuzzer adds words of its own, held to the same rule when the parser understands them.
func FuzzSecretSpellingsAreMasked(f *testing.F) {
	cats := map[string]*catalog.Catalog{"test": testCatalog(f)}
	embedded, err := catalog.Load(catalog.Embedded())
	if err != nil {
		f.Fatal(err)
	}
	cats["shipped"] = embedded
	for _, cat := range cats {
		for _, bp := range cat.Services() {
			for _, fl := range bp.Flags {
				if !fl.Secret {
					continue
				}
				for _, w := range spellings(fl.Name) {
					f.Add(bp.Name, fl.Name, w, uint8(0))
				}
			}
		}
	}
	parsers := []*Parser{NewParser(cats["test"]), NewParser(embedded)}
	f.Fuzz(func(t *testing.T, service, name, word string, form uint8) {
		const secret = "Zq9hunter2"
		for _, p := range parsers {
			if !understood(p, service, word, name) {
				continue
			}
			for i, fm := range secretForms {
				if form != 0 && int(form)%len(secretForms) != i {
					continue
				}
				text := "@eos create " + service + " " + fmt.Sprintf(fm, word, secret)
				masked, found := p.MaskSecrets(text)
				if !found || strings.Contains(masked, secret) {
					t.Errorf("MaskSecrets(%q) = %q, %v", text, masked, found)
				}
				_, err := p.Parse(text)
				if err != nil && strings.Contains(err.Error(), secret) {
					t.Errorf("Parse(%q): the error repeats the secret: %v", text, err)
				}
				var pe *Error
				if errors.As(err, &pe) && strings.Contains(pe.Caret(), secret) {
					t.Errorf("Parse(%q): the caret display repeats the secret:\n%s", text, pe.Caret())
				}
			}
		}
	})
}

// Which flag a word means is one rule for the parser, wherever the word stands: dashed,
// without dashes, in any case, with `_` for `-`, misspelt or shortened, the answer names the
// flag the masker masks for, and, that flag being a secret, says it is never typed instead
// of "did you mean" (which asked for the secret to be typed again).
func TestTheParserReadsFlagNamesByTheOneRule(t *testing.T) {
	p := NewParser(testCatalog(t))
	for _, text := range []string{
		"@eos create grafana --admin_pass_word x",
		"@eos create grafana --ADMIN-PASWORD x",
		"@eos create grafana --admin-pass x",
		"@eos create grafana admin_password x",
		"@eos create grafana Admin-Pasword x",
		"@eos create grafana admin-pass x",
	} {
		_, err := p.Parse(text)
		var pe *Error
		if !errors.As(err, &pe) || pe.Suggestion != "" || pe.Secret != "admin-password" || !strings.HasPrefix(pe.Message, "--admin-password is a secret: Eos generates it") {
			t.Errorf("Parse(%q) = %v; want \"--admin-password is a secret: …\" and no suggestion", text, err)
		}
	}
}

// An error about a secret flag never asks for its value: it says the secret is not typed.
func TestErrorsNeverAskForASecret(t *testing.T) {
	p := NewParser(testCatalog(t))
	for _, text := range []string{
		"@eos create grafana with admin-password hunter2",
		"@eos create grafana --admin-password",
		"@eos create grafana --admin-password=",
	} {
		_, err := p.Parse(text)
		if err == nil || !strings.Contains(err.Error(), "--admin-password is a secret: Eos generates it") ||
			strings.Contains(err.Error(), "TEXT") || strings.Contains(err.Error(), "needs a value") {
			t.Errorf("Parse(%q) = %v; want it to say the secret is not typed", text, err)
		}
	}
}

// A secret word that names a service of the catalog says no secret follows: `@eos status
// token in production` keeps its words.
func TestASecretWordThatNamesAServiceMasksNothing(t *testing.T) {
	p := NewParser(catalog.New(&catalog.Blueprint{Kind: catalog.KindService, Name: "token", Description: "a token service"}))
	for _, text := range []string{"@eos status token in production", "@eos destroy token in staging"} {
		if masked, found := p.MaskSecrets(text); found || masked != text {
			t.Errorf("MaskSecrets(%q) = %q, %v; want it unchanged", text, masked, found)
		}
	}
}

// A word that says a secret follows is answered as a secret, never as a mistake to correct:
// the answer names the secrets Eos generates instead.
func TestASecretWordIsAnsweredAsASecret(t *testing.T) {
	p := NewParser(testCatalog(t))
	_, err := p.Parse("@eos create grafana password hunter2")
	var pe *Error
	if !errors.As(err, &pe) || pe.Message != `"password": secrets are never typed in chat; Eos generates --admin-password and keeps it in Vault` ||
		strings.Contains(pe.Error()+pe.Caret(), "hunter2") {
		t.Errorf("Parse = %v; want the secret refused, naming --admin-password, without the value", err)
	}
}
