package enginetest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goldenMark ties a README example to the golden file the renderer's tests keep:
// "<!-- golden: bot/render/testdata/preview_risk.golden -->" right before a fenced block.
var goldenMark = regexp.MustCompile("<!-- golden: (\\S+) -->\n```\n((?s:.*?))```\n")

// The README's conversation examples are the renderer's own output: each example marked with
// its golden file shows that file's post exactly (without its attachment), so when a preview
// changes, `go test ./bot/render -update` rewrites the golden and this test says which README
// example to copy it into.
func TestTheREADMEShowsWhatEosPosts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	marks := goldenMark.FindAllStringSubmatch(string(readme), -1)
	if len(marks) < 3 {
		t.Fatalf("the README marks %d examples with their golden file, want the preview, the risky and the blocked one at least", len(marks))
	}
	for _, m := range marks {
		golden, err := os.ReadFile(filepath.Join("..", "..", m[1]))
		if err != nil {
			t.Errorf("README example from %s: %v", m[1], err)
			continue
		}
		post, _, _ := strings.Cut(string(golden), "--- attachment ")
		if want := strings.TrimRight(post, "\n") + "\n"; m[2] != want {
			t.Errorf("the README example marked %s is not what Eos posts; copy it from the golden file:\n%s", m[1], want)
		}
	}
}
