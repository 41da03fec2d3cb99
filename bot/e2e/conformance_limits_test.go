package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eosbot/eos/bot/eostest"
)

// bulkRecords is how many DNS records the bulk blueprint plans: its full plan is longer than
// any platform's limit (Mattermost's 16,383 characters included).
const bulkRecords = 400

func TestConformanceOverlongPlanStaysWithinLimits(t *testing.T) {
	forEachPlatform(t, func(t *testing.T, p platform, h *eostest.Harness) {
		root, _, id := askOn(t, p, "alice", "@eos create bulk")
		full := p.say(t, "alice", root, "@eos plan "+id+" full")
		row := func(i int) string { return fmt.Sprintf("bulk eoslab_dns_record.r[%d]", i) }
		posts := waitThread(t, p, full, "full plan with every row", func(posts []post) bool {
			return strings.Contains(joinPosts(posts), row(bulkRecords-1))
		})
		joined := joinPosts(posts)
		t.Logf("the full plan: %d characters in %d posts", utf8.RuneCountInString(joined), len(posts))
		if p.limit() > 0 && utf8.RuneCountInString(joined) <= p.limit() {
			t.Fatalf("the full plan has %d characters, within the limit of %d: this test tests nothing", utf8.RuneCountInString(joined), p.limit())
		}
		for _, q := range p.thread(t, root) {
			if err := p.withinLimit(q); err != nil {
				t.Errorf("post %s is beyond the platform's limit: %v", q.ID, err)
			}
		}
		for _, q := range posts {
			if err := p.withinLimit(q); err != nil {
				t.Errorf("post %s is beyond the platform's limit: %v", q.ID, err)
			}
		}
		// A row cut between two posts would leave its address without its layer and action.
		lines := strings.Split(joined, "\n")
		for i := range bulkRecords {
			if !anyLine(lines, "Terraform", "create", row(i)) {
				t.Errorf("no whole row for %s (layer, action and address on one line)", row(i))
			}
		}
	})
}

func joinPosts(posts []post) string {
	var b strings.Builder
	for _, q := range posts {
		b.WriteString(q.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func anyLine(lines []string, subs ...string) bool {
	for _, l := range lines {
		if eostest.ContainsAll(l, subs...) {
			return true
		}
	}
	return false
}

// bulkCatalog writes an operator catalog folder with the blueprint "bulk": bulkRecords DNS
// records in one Terraform module, and returns the folder.
func bulkCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"bulk/manifest.hcl": `service "bulk" {
  description = "many DNS records, for the conformance suite's over-long plan"

  terraform {
    module = "terraform"
    variables = {
      name = service.name
    }
  }
}
`,
		"bulk/terraform/main.tf": fmt.Sprintf(`terraform {
  required_providers {
    eoslab = {
      source  = "eos/eoslab"
      version = ">= 0.1.0"
    }
  }
}

variable "name" {
  type        = string
  description = "Name of the service."
}

resource "eoslab_dns_record" "r" {
  count = %d
  zone  = "example.org"
  name  = "${var.name}-${count.index}"
  type  = "A"
  value = "192.0.2.1"
  ttl   = 300
}
`, bulkRecords),
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
