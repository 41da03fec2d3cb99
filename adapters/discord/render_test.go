package discord

import (
	"fmt"
	"github.com/eosbot/eos/internal/golden"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eosbot/eos/adapters"
)

// longPlan is a preview whose per-resource table is far too long for one message.
func longPlan() adapters.Doc {
	table := adapters.Table{Header: []string{"layer", "resource", "change"}}
	for i := range 120 {
		table.Rows = append(table.Rows, []string{"Terraform", fmt.Sprintf("volume.data-%03d", i), "+ create 100G xfs ✅"})
	}
	return adapters.NewDoc(
		adapters.Heading{Text: "Plan 7f3a9c21 · create nextcloud --sso in production · asked by @alice"},
		table,
		adapters.Context{Text: "React ✅ to approve, ❌ to reject · details: @eos plan 7f3a9c21 full"},
	)
}

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
				{"Vault", "creates 1 secret (admin password), reuses 0 — values never shown"},
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
		adapters.Heading{Text: "Drift · Mon 23 Nov 08:00 UTC · 3 of 41 services drifted · 1 new since yesterday · 2 resolved"},
		adapters.List{Items: []string{
			"nextcloud (production) · Terraform: server proxy-nextcloud size small → large, changed outside · new",
			"grafana (staging) · Nomad: 1 of 2 allocations failed · drifted since Fri",
			"jenkins (production) · unknown: Salt check timed out after 60 s (not counted as clean)",
		}},
		adapters.Context{Text: "React 🔧 on a line, or @eos reconcile SERVICE, to plan a fix."},
	),
	"error": adapters.NewDoc(
		adapters.Text{Text: `unknown service "nextclod" — did you mean "nextcloud"?`},
		adapters.Code{Text: "create nextclod --sso\n       ^ column 8"},
		adapters.Context{Text: "Services: authentik, grafana, jenkins, nextcloud · @eos help create"},
	),
}

// TestRenderGolden fixes the text of each message; an over-long Doc is fixed as the messages
// it is split into, separated by a line of equals signs.
func TestRenderGolden(t *testing.T) {
	cases := map[string]string{}
	for name, doc := range goldenDocs {
		cases[name] = Render(doc)
	}
	cases["long"] = strings.Join(split(chunks(longPlan()), maxLength), "\n==========\n")
	for name, got := range cases {
		t.Run(name, func(t *testing.T) {
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
		{"heading is one bold line", adapters.Heading{Text: "Plan\n 7f3a"}, "**Plan 7f3a**"},
		{"text keeps lines", adapters.Text{Text: "a\nb"}, "a\nb"},
		{"context is subtext, line by line", adapters.Context{Text: "next: approve\nor reject"}, "-# next: approve\n-# or reject"},
		{"code fence outgrows backticks inside", adapters.Code{Text: "a ``` b"}, "````\na ``` b\n````"},
		{"list item lines are indented", adapters.List{Items: []string{"one", "two\nmore"}}, "- one\n- two\n  more"},
		{"table is aligned in a code block under a rule", adapters.Table{Header: []string{"a", "bb"}, Rows: [][]string{{"xyz", "1\n2"}}},
			"```\na   | bb\n---------\nxyz | 1 2\n```"},
		{"empty table renders nothing", adapters.Table{}, ""},
		{"empty text renders nothing", adapters.Text{Text: "\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Render(adapters.NewDoc(tt.block)); got != tt.want {
				t.Errorf("Render = %q, want %q", got, tt.want)
			}
		})
	}
}
