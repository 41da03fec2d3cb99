package salt

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/eosbot/eos/executor"
)

// maskUnit is a unit whose state renders a configuration file from its pillar, and which has
// a generated secret besides (its value never reaches the layer).
func maskUnit() executor.Unit {
	return executor.Unit{Service: "app", Secrets: []string{"admin_password"}, Salt: &executor.SaltPart{
		Text: `/srv/app/app.conf:
  file.managed:
    - contents: "# managed by Eos\ndomain={{ pillar['domain'] }}\nport={{ pillar['port'] }}\n"
`,
		Pillar: map[string]any{"domain": "cloud.example.org", "port": 8080, "tags": []any{"web"}},
	}}
}

// A diff line is shown only when it is made of the blueprint's own words; a secret in any
// spelling, anywhere in a line, on either side of the diff or in its context, is masked.
func TestDiffMaskShowsOnlyLinesProvablyFreeOfSecrets(t *testing.T) {
	const secret = "Zr7qK2vLp9Xw"
	m := maskerFor(maskUnit())
	cases := []struct {
		name, line string
		shown      bool
	}{
		{"known line added", "+domain=cloud.example.org", true},
		{"known line removed", "-port=8080", true},
		{"known context", " # managed by Eos", true},
		{"value from the pillar list", "+web", true},
		{"empty context line", " ", true},
		{"hunk header", "@@ -1,3 +1,3 @@", true},
		{"no newline note", `\ No newline at end of file`, true},
		{"old value Eos never declared", "-port=8081", false},
		{"secret alone", "+" + secret, false},
		{"secret in the middle of a line", "+domain=cloud." + secret + ".example.org", false},
		{"secret twice", "+" + secret + " " + secret, false},
		{"secret at the start", "+" + secret + "domain=cloud.example.org", false},
		{"secret at the end", "+domain=cloud.example.org" + secret, false},
		{"secret in context", " db=" + secret, false},
		{"secret removed", "-" + secret, false},
		{"secret in base64", "+" + base64.StdEncoding.EncodeToString([]byte(secret)), false},
		{"secret in hex", "+" + hex.EncodeToString([]byte(secret)), false},
		{"secret quoted", `+"` + secret + `"`, false},
		{"first half of a split secret", "+" + secret[:6], false},
		{"second half of a split secret", "+" + secret[6:], false},
		{"secret made of punctuation", "+port=8080#%!&*^", false},
		{"password named in known words", "+domain=cloud # password", false},
		{"secret name as a key", "+admin=cloud", false},
		{"api key spelled as one word", "+apikey=8080", false},
		{"SECRET_KEY in capitals", "+SECRET_KEY=8080", false},
		{"hunk header with a section", "@@ -1 +1 @@ " + secret, false},
		{"file header with a path", "--- /srv/" + secret, false},
		{"not a diff line", secret, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := m.line(c.line)
			switch {
			case c.shown && got != c.line:
				t.Errorf("line(%q) = %q; want it shown as it is", c.line, got)
			case !c.shown && !strings.Contains(got, secretMasked):
				t.Errorf("line(%q) = %q; want it masked", c.line, got)
			case !c.shown && strings.Contains(got, secret[:6]), !c.shown && strings.Contains(got, secret[6:]):
				t.Errorf("line(%q) = %q shows a piece of the secret", c.line, got)
			}
		})
	}
}

// A whole diff keeps its structure: each masked line keeps its +, - or space, so the line
// counts still read; Salt's notes that are no diff give nothing to show.
func TestDiffMaskKeepsTheDiffsShape(t *testing.T) {
	m := maskerFor(maskUnit())
	diff := "--- \n+++ \n@@ -1,3 +1,3 @@\n # managed by Eos\n-domain=old.example.org\n+domain=cloud.example.org\n port=8080\n-pw=hunter2\n+pw=Zr7qK2vLp9Xw\n"
	want := "--- \n+++ \n@@ -1,3 +1,3 @@\n # managed by Eos\n-<secret masked>\n+domain=cloud.example.org\n port=8080\n-<secret masked>\n+<secret masked>"
	if got := m.mask(diff); got != want {
		t.Errorf("mask =\n%s\nwant\n%s", got, want)
	}
	for _, note := range []string{"New file", "Replace binary file", "<show_changes=False>", ""} {
		if got := m.mask(note); got != "" {
			t.Errorf("mask(%q) = %q; want nothing", note, got)
		}
	}
	long := "@@ -1,500 +1,500 @@\n" + strings.Repeat("+port=8080\n", maxDiffLines+10)
	got := strings.Split(m.mask(long), "\n")
	if len(got) != maxDiffLines+1 || got[maxDiffLines] != "… 11 more lines not kept" {
		t.Errorf("a long diff keeps %d lines, last %q; want %d and a count", len(got), got[len(got)-1], maxDiffLines+1)
	}
}

// A change's own name (the file's path, the minion) is shown anyway, so its words may be in a
// line; a secret next to them still is not.
func TestDiffMaskTakesTheChangesOwnName(t *testing.T) {
	m := maskerFor(maskUnit())
	if got := m.line(" port=/var/eos/srv/app"); got != " "+secretMasked {
		t.Errorf("a path the unit does not name is shown: %q", got)
	}
	named := m.with("/var/eos/srv/app/app.conf", "node1")
	if got := named.line(" port=/var/eos/srv/app"); got != " port=/var/eos/srv/app" {
		t.Errorf("a line of the file's own path is masked: %q", got)
	}
	if got := named.line(" port=/var/eos/srv/Zr7qK2vLp9Xw"); got != " "+secretMasked {
		t.Errorf("a secret next to the path is shown: %q", got)
	}
	if got := m.line(" port=/var/eos/srv/app"); got != " "+secretMasked {
		t.Errorf("with changed the masker it was made from: %q", got)
	}
}

// The diff reaches the plan's change masked, and the plan's digest (so its hash) does not
// depend on it.
func TestChangeCarriesTheMaskedDiff(t *testing.T) {
	u := maskUnit()
	raw := []byte(`{"file_|-/srv/app/app.conf_|-/srv/app/app.conf_|-managed": {"result": null, "__run_num__": 0, "comment": "The file /srv/app/app.conf is set to be changed",
		"changes": {"diff": "--- \n+++ \n@@ -1,2 +1,2 @@\n-domain=old\n+domain=cloud.example.org\n pw=Zr7qK2vLp9Xw\n"}}}`)
	cs := changesOf(u, parseReturn("m1", raw), nil)
	if len(cs) != 1 {
		t.Fatalf("changes %+v; want one", cs)
	}
	want := "--- \n+++ \n@@ -1,2 +1,2 @@\n-<secret masked>\n+domain=cloud.example.org\n <secret masked>"
	if len(cs) == 1 && cs[0].Diff != want || cs[0].Detail != "content +1 −1 lines" {
		t.Errorf("change detail %q diff\n%s\nwant\n%s", cs[0].Detail, cs[0].Diff, want)
	}
}
