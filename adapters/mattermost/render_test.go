package mattermost

import (
	"github.com/eosbot/eos/internal/golden"
	"path/filepath"
	"testing"

	"github.com/eosbot/eos/adapters"
)

// Docs shaped like what the engine posts (see design/CONVERSATION.md).
var goldenDocs = map[string]adapters.Doc{
	"preview": adapters.NewDoc(
		adapters.Heading{Text: "Plan 7f3a9c21 · create nextcloud --sso in production · asked by @alice"},
		adapters.Table{
			Header: []string{"layer", "what changes"},
			Rows: [][]string{
				{"Salt", "node1: 3 states would change (lvm data-nextcloud 100G xfs, …)"},
				{"Terraform", "+3 ~0 −0: server proxy-nextcloud, volume data, dns cloud.example.org"},
				{"Nomad", "job nextcloud: new, groups app ×1, db ×1"},
				{"Vault", "creates 1 secret (admin password), reuses 0 | values never shown"},
			},
		},
		adapters.Text{Text: "Also brings in authentik (because of --sso): planned in the same run.\nNeeds 1 approval from @bob or group ops-approvers, not from @alice · expires 14:32 UTC"},
		adapters.Context{Text: "React ✅ to approve, ❌ to reject · details: @eos plan 7f3a9c21 full"},
	),
	"progress": adapters.NewDoc(
		adapters.Heading{Text: "Run 7f3a9c21 · approved by @bob"},
		adapters.List{Items: []string{"Salt ✅ 3/3", "Terraform ⏳ 2/3 dns cloud.example.org…", "Nomad ⏸"}},
	),
	"digest": adapters.NewDoc(
		adapters.Heading{Text: "Drift · Mon 23 Nov 08:00 UTC · 3 of 41 services drifted · 1 new since the last digest · 2 resolved"},
		adapters.List{Items: []string{
			"nextcloud (production) · Terraform: 1 change · new",
			"grafana (staging) · Nomad: 1 change · since an earlier digest",
			"jenkins (production) · unknown: Salt check failed (timed out after 60 s)",
		}},
		adapters.Context{Text: "@eos reconcile SERVICE to plan a fix · details in the thread"},
	),
	"error": adapters.NewDoc(
		adapters.Text{Text: `unknown service "nextclod" — did you mean "nextcloud"?`},
		adapters.Code{Text: "create nextclod --sso\n       ^ column 8"},
		adapters.Context{Text: "Services: authentik, grafana, jenkins, nextcloud · @eos help create"},
	),
}

func TestRenderGolden(t *testing.T) {
	for name, doc := range goldenDocs {
		t.Run(name, func(t *testing.T) {
			got := Render(doc)
			golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
		})
	}
}

func TestRenderBlocks(t *testing.T) {
	tests := []struct {
		name  string
		block adapters.Block
		want  string
	}{
		{"heading is one line", adapters.Heading{Text: "Plan\n 7f3a"}, "#### Plan 7f3a"},
		{"text keeps lines", adapters.Text{Text: "a\nb"}, "a\nb"},
		{"context in italics", adapters.Context{Text: "next: approve"}, "_next: approve_"},
		{"context with markers stays plain", adapters.Context{Text: "see eos/production/admin_password"}, "see eos/production/admin_password"},
		{"code fence outgrows backticks inside", adapters.Code{Text: "a ``` b"}, "````\na ``` b\n````"},
		{"list item lines are indented", adapters.List{Items: []string{"one", "two\nmore"}}, "- one\n- two\n  more"},
		{"table cells are escaped and padded", adapters.Table{Header: []string{"a"}, Rows: [][]string{{"x|y", "z\nw"}}},
			"| a |  |\n|---|---|\n| x\\|y | z w |"},
		{"empty table renders nothing", adapters.Table{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderBlock(tt.block); got != tt.want {
				t.Errorf("renderBlock = %q, want %q", got, tt.want)
			}
		})
	}
}
