package main

import (
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eosbot/eos/bot/store"
)

// eos policy handles lists the account each policy handle is pinned to, and --forget removes
// one pin, audited with the local user: by opening the store, and through the running Eos's
// socket when it holds the store. A pin that does not exist, or a malformed name, is answered
// with what to type instead and changes nothing.
func TestPolicyHandlesListsAndForgetsPins(t *testing.T) {
	for _, via := range []string{"store", "socket"} {
		t.Run(via, func(t *testing.T) {
			data := t.TempDir()
			t.Setenv("EOS_DATA_DIR", data)
			t.Setenv("EOS_CONFIG", "")
			ctx := context.Background()
			st, err := store.Open(filepath.Join(data, "eos.db"), time.Second)
			if err != nil {
				t.Fatal(err)
			}
			since := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
			for _, p := range []store.HandlePin{{Platform: "mattermost", Handle: "bob", ID: "u8x4bob", Name: "bob", Since: since},
				{Platform: "slack", Handle: "dave", ID: "U0DAVE", Name: "dave", Since: since},
				{Platform: "mattermost", Handle: "carol", Since: since}} { // vacant: nobody held carol
				if _, _, err := st.PinHandle(ctx, p, store.Entry{Kind: "pin", Text: "pinned " + p.Handle}); err != nil {
					t.Fatal(err)
				}
			}
			if via == "store" {
				st.Close()
			} else {
				defer st.Close()
				ln, err := net.Listen("unix", filepath.Join(data, "eos.sock"))
				if err != nil {
					t.Fatal(err)
				}
				srv := &http.Server{Handler: toolsHandler(&app{store: st})}
				go srv.Serve(ln)
				t.Cleanup(func() { srv.Close() })
			}
			out, err := eos(t, "policy", "handles")
			flat := strings.Join(strings.Fields(out), " ")
			if err != nil || !strings.Contains(flat, "mattermost bob u8x4bob @bob 2026-11-20 09:30") || !strings.Contains(flat, "slack dave U0DAVE") ||
				!strings.Contains(flat, "mattermost carol nobody (no account held it) - 2026-11-20 09:30") {
				t.Fatalf("eos policy handles = %v:\n%s", err, out)
			}
			out, err = eos(t, "policy", "handles", "--forget", "mattermost:carol")
			if err != nil || !strings.Contains(out, "Forgot carol on mattermost (vacant: nobody held it, pinned 2026-11-20 09:30 UTC)") {
				t.Fatalf("forgetting the vacant pin = %v:\n%s", err, out)
			}
			out, err = eos(t, "policy", "handles", "--forget", "mattermost:bob")
			if err != nil || !strings.Contains(out, "Forgot bob on mattermost (account u8x4bob, pinned 2026-11-20 09:30 UTC)") {
				t.Fatalf("forget = %v:\n%s", err, out)
			}
			if out, err := eos(t, "policy", "handles", "--forget", "mattermost:bob"); err == nil || !strings.Contains(err.Error(), "no pin for handle bob on mattermost") {
				t.Errorf("forgetting it again = %v:\n%s", err, out)
			}
			if _, err := eos(t, "policy", "handles", "--forget", "bob"); err == nil || !strings.Contains(err.Error(), "give PLATFORM:HANDLE") {
				t.Errorf("--forget bob = %v", err)
			}
			out, err = eos(t, "policy", "handles")
			if err != nil || strings.Contains(out, "u8x4bob") || !strings.Contains(out, "U0DAVE") {
				t.Fatalf("after the forget = %v:\n%s", err, out)
			}
			out, err = eos(t, "audit")
			if err != nil || !strings.Contains(out, "pin of policy handle bob on mattermost forgotten by local user") {
				t.Errorf("the audit log lacks the forget: %v\n%s", err, out)
			}
		})
	}
}

// After a forget through a running Eos, the answer names the account the handle stands for
// from then on, or says it is vacant again, or why it was not looked up.
func TestForgettingAPinSaysWhoTheHandleNamesNow(t *testing.T) {
	since := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	gone := store.HandlePin{Platform: "mattermost", Handle: "carol", Since: since}
	for _, c := range []struct {
		f    forgotten
		want string
	}{
		{forgotten{HandlePin: gone, Now: &store.HandlePin{Platform: "mattermost", Handle: "carol", ID: "u-carol", Name: "carol"}},
			"Forgot carol on mattermost (vacant: nobody held it, pinned 2026-11-20 09:30 UTC). Looked up again: carol now names account u-carol (@carol).\n"},
		{forgotten{HandlePin: gone, Now: &store.HandlePin{Platform: "mattermost", Handle: "carol"}},
			"Looked up again: no mattermost account holds carol now, so it is pinned vacant again and names nobody.\n"},
		{forgotten{HandlePin: gone, NotNow: "Eos is not connected to mattermost"},
			"Not looked up again (Eos is not connected to mattermost): the next look-up pins whoever holds the handle then.\n"},
		{forgotten{HandlePin: gone}, "The next look-up pins whoever holds the handle then.\n"},
	} {
		var b strings.Builder
		printForgot(&b, c.f)
		if !strings.HasSuffix(b.String(), c.want) {
			t.Errorf("printForgot(%+v) = %q, want it to end %q", c.f, b.String(), c.want)
		}
	}
}
