package enginetest_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eosbot/eos/adapters/console"
	"github.com/eosbot/eos/bot/eostest"
	"github.com/eosbot/eos/bot/store"
	"github.com/eosbot/eos/catalog"
	"github.com/eosbot/eos/intents"
	bolt "go.etcd.io/bbolt"
)

// The two spellings that were answered with the value in clear and left up, a phrase and a
// shortened flag: now masked in the answer, the message taken down, and the value in no post,
// no log line and no store record.
func TestTypedSecretInPhraseOrShortenedFlagIsTakenDown(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{})
	var values []string
	for i, text := range []string{
		"@eos create grafana with admin-password %s",
		"@eos create grafana --admin-pass %s",
	} {
		value := fmt.Sprintf("Vk%dhunter2Qz", i)
		values = append(values, value)
		sayTypedSecret(t, h, fmt.Sprintf(text, value), value)
	}
	h.Stop()
	for _, v := range values {
		secretNowhere(t, h, v)
	}
}

// sayTypedSecret types text as alice and checks that the bot answers without value and takes
// the message down.
func sayTypedSecret(t *testing.T, h *eostest.Harness, text, value string) {
	t.Helper()
	after := h.Last()
	h.Say("alice", text)
	answer := h.WaitPost(after, func(console.Post) bool { return true })
	if strings.Contains(answer.Text, value) || strings.Contains(answer.Attachment, value) {
		t.Errorf("%q is answered with the value in clear:\n%s", text, answer.Text)
	}
	if !strings.Contains(answer.Text, "I deleted your message") {
		t.Errorf("%q: the answer should say the message was deleted:\n%s", text, answer.Text)
	}
	for _, p := range h.Console.Posts() {
		if p.ID == after+1 && (!p.Removed || p.Author != "alice") {
			t.Errorf("%q: alice's message %d is still up: %+v", text, p.ID, p)
		}
	}
}

// secretNowhere fails if value is in a post, a log line, or the store (stopped): every key
// and value of every bucket, nested ones too, and the file's bytes, free pages included.
func secretNowhere(t *testing.T, h *eostest.Harness, value string) {
	t.Helper()
	for _, p := range h.Console.Posts() {
		if strings.Contains(p.Text, value) || strings.Contains(p.Attachment, value) {
			t.Errorf("post %d by %s shows the value:\n%s", p.ID, p.Author, p.Text)
		}
	}
	for _, line := range strings.Split(h.Log.String(), "\n") {
		if strings.Contains(line, value) {
			t.Errorf("a log line shows the value: %s", line)
		}
	}
	path := filepath.Join(h.DataDir, "eos.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, Timeout: time.Second})
	if err != nil {
		t.Fatalf("opening the store after the bot: %v", err)
	}
	defer db.Close()
	buckets := 0
	var walk func(name []byte, b *bolt.Bucket) error
	walk = func(name []byte, b *bolt.Bucket) error {
		buckets++
		return b.ForEach(func(k, v []byte) error {
			if bytes.Contains(k, []byte(value)) || bytes.Contains(v, []byte(value)) {
				return fmt.Errorf("bucket %s, key %q holds the value", name, k)
			}
			if v == nil {
				return walk(append(append(name, '/'), k...), b.Bucket(k))
			}
			return nil
		})
	}
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(name, b) })
	})
	if err != nil {
		t.Error(err)
	}
	if buckets == 0 {
		t.Error("the store has no buckets: the scan saw nothing")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(value)) {
		t.Error("the store's file holds the value (a free page?)")
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

// secretSpellings are ways to type name: as defined, in capitals, with `_` for `-`, and every
// single edit (deletion, substitution, insertion, transposition) and prefix. The parser says
// which of them it understands (understoodAs).
func secretSpellings(name string) []string {
	out := []string{name, strings.ToUpper(name), strings.ReplaceAll(name, "-", "_")}
	r := []rune(name)
	for i := range r {
		out = append(out, string(r[:i])+string(r[i+1:]), string(r[:i])+"x"+string(r[i+1:]), string(r[:i])+"q"+string(r[i:]))
		if i+1 < len(r) {
			out = append(out, string(r[:i])+string(r[i+1])+string(r[i])+string(r[i+2:]))
		}
		if i >= 3 {
			out = append(out, string(r[:i]))
		}
	}
	return out
}

// understoodAs reports whether Eos takes word, typed as a flag after request ("create
// grafana"), for the secret flag name: the request parses with it, or the answer is "did you
// mean --name?".
func understoodAs(p *intents.Parser, request, word, name string) bool {
	in, err := p.Parse("@eos " + request + " --" + word + " x")
	var pe *intents.Error
	switch {
	case err == nil:
		_, ok := in.Flag(name)
		return ok
	case errors.As(err, &pe):
		return pe.Suggestion == "--"+name || pe.Secret == name
	}
	return false
}

// sampleArgs are values an operation's positional arguments accept, by type.
var sampleArgs = map[catalog.Type]string{
	catalog.String: "data", catalog.Size: "10G", catalog.Int: "1", catalog.Port: "8080",
	catalog.Hostname: "node1.example.org", catalog.List: "a,b", catalog.Path: "/srv/data",
	catalog.Duration: "1h", catalog.Bool: "true", catalog.Service: "grafana",
}

// secretFlags are the secret flags of every shipped blueprint, as the request that takes them
// ("create grafana", "resize lvm data 10G") → flag names.
func secretFlags(t testing.TB) (*catalog.Catalog, map[string][]string) {
	cat, err := catalog.Load(catalog.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	flags := map[string][]string{}
	every := cat.Services()
	for _, v := range cat.OperationVerbs() {
		every = append(every, cat.Operations(v)...)
	}
	for _, bp := range every {
		request := "create " + bp.Name
		if bp.Kind == catalog.KindOperation {
			request = bp.Verb + " " + bp.Name
			for _, a := range bp.Args {
				request += " " + sampleArgs[a.Type]
			}
		}
		for _, f := range bp.Flags {
			if f.Secret {
				flags[request] = append(flags[request], f.Name)
			}
		}
	}
	if len(flags) == 0 {
		t.Fatal("no shipped blueprint has a secret flag: the test would check nothing")
	}
	return cat, flags
}

var fuzzValue atomic.Int64

// Every spelling of every secret flag of every shipped blueprint that Eos understands, in every
// form (flag, `=`, an em dash, quoted, phrase, `:`, bare), is answered without the value, the
// message taken down, and the value is in no post, no log line and no store record. The seed
// corpus is every generated spelling; `go test -fuzz` tries words of its own, held to the same
// rule when the parser understands them as a secret flag.
func FuzzTypedSecretNeverLeavesEos(f *testing.F) {
	cat, flags := secretFlags(f)
	for request, names := range flags {
		for _, name := range names {
			for _, w := range secretSpellings(name) {
				f.Add(request, name, w)
			}
		}
	}
	p := intents.NewParser(cat)
	f.Fuzz(func(t *testing.T, request, name, word string) {
		if !understoodAs(p, request, word, name) {
			return // a word Eos does not take for the secret flag: nothing to hold it to
		}
		h := eostest.New(t, eostest.Options{})
		var values []string
		for _, form := range secretForms {
			value := fmt.Sprintf("Vk%dhunter2Qz", fuzzValue.Add(1))
			values = append(values, value)
			sayTypedSecret(t, h, "@eos "+request+" "+fmt.Sprintf(form, word, value), value)
		}
		h.Stop()
		for _, v := range values {
			secretNowhere(t, h, v)
		}
	})
}

// An operation's secret flag is a secret like a service's: typed exactly, the request is
// refused; misspelt or as a phrase, the mistake is explained masked; either way the message is
// taken down and the value is nowhere.
func TestOperationSecretFlagIsTakenDown(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{CatalogDirs: []string{"testdata/secretop"}})
	var values []string
	for i, text := range []string{
		"@eos rekey volume data --unlock-phrase %s",
		"@eos rekey volume data --unlock-phrse=%s",
		"@eos rekey volume data with unlock_phrase %s",
	} {
		value := fmt.Sprintf("Op%dhunter2Qz", i)
		values = append(values, value)
		after := h.Last()
		sayTypedSecret(t, h, fmt.Sprintf(text, value), value)
		if i == 0 {
			h.WaitText(after, "Secrets are never typed in chat", "volume's unlock phrase")
		}
	}
	h.Stop()
	for _, v := range values {
		secretNowhere(t, h, v)
	}
	if plans, _ := h.Store.Plans(context.Background(), func(*store.Plan) bool { return true }); len(plans) != 0 {
		t.Errorf("a request with a typed secret made %d plans", len(plans))
	}
}

// A request that Eos turns away before looking at its flags (an environment nobody declared)
// is taken down too when it holds a typed secret: the refusal is not a reason to leave it up.
func TestTypedSecretInARequestForAnUnknownEnvironmentIsTakenDown(t *testing.T) {
	t.Parallel()
	h := eostest.New(t, eostest.Options{Environments: []string{"production"}})
	const value = "Env0hunter2Qz"
	after := h.Last()
	sayTypedSecret(t, h, "@eos create grafana --admin-password "+value+" in prodution", value)
	h.WaitText(after, `unknown environment "prodution"`)
	h.Stop()
	secretNowhere(t, h, value)
}

// The fuzz test's seed corpus holds Eos to something: most generated spellings of every
// shipped secret flag are ones the parser understands (the rest it skips).
func TestSecretSpellingsSeedTheFuzzTest(t *testing.T) {
	cat, flags := secretFlags(t)
	p := intents.NewParser(cat)
	for request, names := range flags {
		for _, name := range names {
			all, understood := secretSpellings(name), 0
			for _, w := range all {
				if understoodAs(p, request, w, name) {
					understood++
				}
			}
			if understood < len(all)*3/4 {
				t.Errorf("%s --%s: the parser understands %d of %d generated spellings", request, name, understood, len(all))
			}
		}
	}
}
