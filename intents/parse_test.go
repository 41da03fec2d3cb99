package intents

import (
	"errors"
	"strings"
	"testing"

	"github.com/eosbot/eos/catalog"
)

// describe renders an intent compactly: verb, noun, typed args and flags, env and nodes.
func describe(in *Intent) string {
	var b strings.Builder
	b.WriteString(in.VerbWord())
	if in.Verb == VerbOperation {
		b.WriteString("(op)")
	}
	if in.Noun != "" {
		b.WriteString(" " + in.Noun)
	}
	for _, a := range in.Args {
		b.WriteString(" " + valueString(a))
	}
	for _, f := range in.Flags {
		b.WriteString(" --" + f.Name + "=" + valueString(f.Value))
	}
	if in.Env != "" {
		b.WriteString(" env=" + in.Env)
	}
	if in.Nodes != nil {
		b.WriteString(" nodes=" + strings.Join(in.Nodes, "|"))
	}
	return b.String()
}

// valueString shows a value with its type and the typed field that matters.
func valueString(v catalog.Value) string {
	s := string(v.Type) + ":" + v.Text
	switch v.Type {
	case catalog.Bool:
		if v.Bool {
			s += "(yes)"
		} else {
			s += "(no)"
		}
	case catalog.Int, catalog.Port:
		s += "(" + itoa(v.Int) + ")"
	case catalog.Size:
		s += "(" + itoa(v.Bytes)
		if v.Relative {
			s += ",rel"
		}
		s += ")"
	case catalog.Duration:
		s += "(" + v.Duration.String() + ")"
	case catalog.List:
		s += "(" + strings.Join(v.List, "|") + ")"
	}
	return s
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	var b []byte
	for n != 0 {
		d := n % 10
		if d < 0 {
			d = -d
		}
		b = append([]byte{byte('0' + d)}, b...)
		n /= 10
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

func TestParse(t *testing.T) {
	p := NewParser(testCatalog(t))
	tests := []struct {
		in, want string
	}{
		// mentions and verbs
		{"@eos create nextcloud", "create nextcloud"},
		{"eos create nextcloud", "create nextcloud"},
		{"/eos create nextcloud", "create nextcloud"},
		{"@eos: create nextcloud", "create nextcloud"},
		{"eos, create nextcloud", "create nextcloud"},
		{"  @EOS   CREATE Nextcloud", "create nextcloud"},
		{"create nextcloud", "create nextcloud"},
		{"deploy grafana", "create grafana"},
		{"install grafana", "create grafana"},
		{"add grafana", "create grafana"},
		{"remove grafana", "destroy grafana"},
		{"delete grafana", "destroy grafana"},
		{"uninstall grafana", "destroy grafana"},
		{"destroy authentik --with-dependents", "destroy authentik --with-dependents=bool:true(yes)"},
		{"remove authentik --purge-secrets --with-dependents in staging", "destroy authentik --purge-secrets=bool:true(yes) --with-dependents=bool:true(yes) env=staging"},
		{"destroy nextcloud --purge-data in local", "destroy nextcloud --purge-data=bool:true(yes) env=local"},
		{"uninstall grafana --purge-data --purge-secrets", "destroy grafana --purge-data=bool:true(yes) --purge-secrets=bool:true(yes)"},
		{"upgrade grafana --port 3001", "update grafana --port=port:3001(3001)"},
		{"update authentik --domain a.org", "update authentik --domain=hostname:a.org"}, // required flags only on create
		{"status", "status"},
		{"status nextcloud", "status nextcloud"},
		{"status in staging", "status env=staging"},
		{"drift", "drift"},
		{"drift grafana --env prod", "drift grafana env=prod"},
		{"drift history grafana", "drift grafana string:history"},
		{"drift snoozed", "drift string:snoozed"},
		{"drift Snoozed in staging", "drift string:snoozed env=staging"},
		{"history", "history"},
		{"history jenkins", "history jenkins"},
		{"rollback nextcloud in Staging", "rollback nextcloud env=staging"},
		{"cancel", "cancel"},
		{"cancel 7f3a9c21", "cancel 7f3a9c21"},
		{"cancel 7F3A9C21", "cancel 7f3a9c21"},
		{"help", "help"},
		{"help create", "help create"},
		{"help deploy", "help create"},
		{"help Nextcloud", "help nextcloud"},
		{"help resize", "help resize"},
		{"help lvm", "help lvm"},
		{"plan 7f3a9c21", "plan 7f3a9c21"},
		{"plan 7f3a9c21 full", "plan 7f3a9c21 string:full"},
		{"plan", "plan"},      // in a plan's thread: that plan (the engine says so elsewhere)
		{"plan full", "plan"}, // the same
		{"why", "why"},
		{"cancel", "cancel"},
		{"plan nextcloud --sso", "plan nextcloud --sso=bool:true(yes)"},

		// flags of every type
		{"create nextcloud --sso", "create nextcloud --sso=bool:true(yes)"},
		{"create nextcloud --no-sso", "create nextcloud --sso=bool:false(no)"},
		{"create nextcloud --sso=false", "create nextcloud --sso=bool:false(no)"},
		{"create nextcloud --SSO", "create nextcloud --sso=bool:true(yes)"},
		{"create nextcloud —sso", "create nextcloud --sso=bool:true(yes)"},
		{"create nextcloud --domain cloud.example.org", "create nextcloud --domain=hostname:cloud.example.org"},
		{"create nextcloud --domain=Cloud.Example.ORG", "create nextcloud --domain=hostname:cloud.example.org"},
		{"create nextcloud --storage 100GiB", "create nextcloud --storage=size:100GiB(107374182400)"},
		{"create nextcloud --storage=1.5T", "create nextcloud --storage=size:1.5T(1649267441664)"},
		{"create nextcloud --tier large", "create nextcloud --tier=enum:large"},
		{"create nextcloud --tier LARGE", "create nextcloud --tier=enum:large"},
		{"create nextcloud --retention 90m", "create nextcloud --retention=duration:90m(1h30m0s)"},
		{"create nextcloud --retention 2d", "create nextcloud --retention=duration:2d(48h0m0s)"},
		{"create nextcloud --data-dir /srv/data", "create nextcloud --data-dir=path:/srv/data"},
		{`create nextcloud --data-dir "/srv/my data"`, "create nextcloud --data-dir=path:/srv/my data"},
		{"create nextcloud --trusted a.org,b.org", "create nextcloud --trusted=list:a.org,b.org(a.org|b.org)"},
		{"create nextcloud --trusted 'a.org, b.org'", "create nextcloud --trusted=list:a.org,b.org(a.org|b.org)"},
		{"create nextcloud --admin-password hunter2", "create nextcloud --admin-password=string:hunter2"},
		{"create grafana --port 3000", "create grafana --port=port:3000(3000)"},
		{"create grafana --port=3000", "create grafana --port=port:3000(3000)"},
		{"create authentik --realm x --frontend-for nextcloud", "create authentik --realm=string:x --frontend-for=service:nextcloud"},
		{"create authentik --realm x --frontend-for Grafana", "create authentik --realm=string:x --frontend-for=service:grafana"},
		{`create authentik --realm "two words"`, "create authentik --realm=string:two words"},
		{`create authentik --realm="say \"hi\""`, `create authentik --realm=string:say "hi"`},
		{"create authentik --realm in", "create authentik --realm=string:in"},

		// global flags and phrases
		{"create nextcloud --sso in staging", "create nextcloud --sso=bool:true(yes) env=staging"},
		{"create nextcloud --env staging", "create nextcloud env=staging"},
		{"create nextcloud on node1", "create nextcloud nodes=node1"},
		{"create nextcloud on node1,node2.lan", "create nextcloud nodes=node1|node2.lan"},
		{"create nextcloud --nodes node1,node2,node3", "create nextcloud nodes=node1|node2|node3"},
		{"create jenkins --nodes a,b", "create jenkins --nodes=list:a,b(a|b)"},
		{"create jenkins --nodes a,b on node9", "create jenkins --nodes=list:a,b(a|b) nodes=node9"},
		{"create nextcloud with sso", "create nextcloud --sso=bool:true(yes)"},
		{"create nextcloud with sso and distributed-storage", "create nextcloud --sso=bool:true(yes) --distributed-storage=bool:true(yes)"},
		{"create nextcloud without backup", "create nextcloud --backup=bool:false(no)"},
		{"create nextcloud WITH SSO IN PROD ON n1", "create nextcloud --sso=bool:true(yes) env=prod nodes=n1"},
		{"status nextcloud on node1", "status nextcloud nodes=node1"},
		{"help --env prod", "help env=prod"},
		{"web", "web"},
		{"@eos web", "web"},
		{"@EOS Web", "web"},

		// operations
		{"resize lvm data +50G", "resize(op) lvm string:data size:+50G(53687091200,rel)"},
		{"@eos resize lvm data-nextcloud +50G on node1", "resize(op) lvm string:data-nextcloud size:+50G(53687091200,rel) nodes=node1"},
		{"Resize LVM data 100GiB --fs xfs", "resize(op) lvm string:data size:100GiB(107374182400) --fs=enum:xfs"},
		{`resize lvm "on" 1T`, "resize(op) lvm string:on size:1T(1099511627776)"},

		// whitespace of every kind
		{"create\u00a0nextcloud\t--sso\n", "create nextcloud --sso=bool:true(yes)"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in, err := p.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got := describe(in); got != tt.want {
				t.Errorf("Parse(%q)\n got: %s\nwant: %s", tt.in, got, tt.want)
			}
			if in.Raw != tt.in {
				t.Errorf("Raw = %q, want the text as typed", in.Raw)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	p := NewParser(testCatalog(t))
	tests := []struct {
		in         string
		msg        string
		col        int
		suggestion string
	}{
		{"", "say what to do, like create SERVICE; help lists everything", 1, ""},
		{"@eos", "say what to do, like create SERVICE; help lists everything", 5, ""},
		{"@eos craete nextcloud", `unknown command "craete"`, 6, "create"},
		{"frobnicate", `unknown command "frobnicate"; commands: create, destroy, update, status, drift, reconcile, adopt, plan, rollback, history, help, cancel, policy, locks, why, web, resize`, 1, ""},
		{"web grafana", `unexpected "grafana"; usage: web`, 5, ""},
		{"@eos wbe", `unknown command "wbe"`, 6, "web"},
		{"--sso", `start with a command, like create SERVICE, not "--sso"`, 1, ""},
		{"@eos create nextclod --sso", `unknown service "nextclod"`, 13, "nextcloud"},
		{"create nextclod --sso", `unknown service "nextclod"`, 8, "nextcloud"},
		{"create graphana", `unknown service "graphana"`, 8, "grafana"},
		{"create next", `unknown service "next"`, 8, "nextcloud"},
		{"create mysql", `unknown service "mysql"; services: authentik, grafana, jenkins, nextcloud`, 8, ""},
		{"create", "create needs a service; services: authentik, grafana, jenkins, nextcloud", 7, ""},
		{"create --sso", "create needs a service; services: authentik, grafana, jenkins, nextcloud", 8, ""},
		{"create in staging", "create needs a service; services: authentik, grafana, jenkins, nextcloud", 8, ""},
		{"status nextclod", `unknown service "nextclod"`, 8, "nextcloud"},
		{"create nextcloud --ssoo", `unknown flag "--ssoo" for nextcloud`, 18, "--sso"},
		{"create nextcloud --no-ssoo", `unknown flag "--no-ssoo" for nextcloud`, 18, "--no-sso"},
		{"create grafana --colour red", `unknown flag "--colour" for grafana; flags: --port, --domain, --env, --nodes`, 16, ""},
		{"destroy nextcloud --sso", `unknown flag "--sso"; destroy takes only --env, --nodes, --purge-data, --purge-secrets and --with-dependents`, 19, ""},
		{"status --nodez a", `unknown flag "--nodez"`, 8, "--nodes"},
		{"destroy authentik --with-dependent", `unknown flag "--with-dependent"`, 19, "--with-dependents"},
		{"destroy nextcloud --purge-dat", `unknown flag "--purge-dat"`, 19, "--purge-data"},
		{"create nextcloud --with-dependents", `unknown flag "--with-dependents" for nextcloud; flags: --sso, --domain, --distributed-storage, --storage, --tier, --backup, --retention, --data-dir, --trusted, --env, --nodes`, 18, ""},
		{"create nextcloud with ssoo", `unknown option "ssoo" for nextcloud`, 23, "sso"},
		{"create grafana with sso", `unknown option "sso" for grafana; grafana has no yes/no flags`, 21, ""},
		{"create nextcloud with domain", `"with domain": --domain is not a yes/no flag; write --domain NAME`, 23, ""},
		{"create nextcloud with", "with needs a flag name, like with sso", 22, ""},
		{"create nextcloud with sso and", "with needs a flag name, like with sso", 30, ""},
		{"create nextcloud --no-domain", `"--no-domain": only yes/no flags can be turned off, and --domain is a hostname`, 18, ""},
		{"create nextcloud --no-sso=true", "--no-sso takes no value", 26, ""},
		{"create grafana --port", "--port needs a value (port)", 22, ""},
		{"create grafana --port   ", "--port needs a value (port)", 22, ""},
		{"create grafana --port --domain x.org", "--port needs a value (port)", 22, ""},
		{"create grafana --port=", "--port needs a value (port)", 23, ""},
		{"create nextcloud --tier", "--tier needs a value (enum): one of small, medium, large", 24, ""},
		{"create grafana --port 30x0", `--port: "30x0" is not a whole number`, 23, ""},
		{"create nextcloud --storage huge", `--storage: "huge" is not a size: write a number and a unit (K, M, G, T, or GiB, GB, ...), like 100G or +50G`, 28, ""},
		{"create nextcloud --storage 0G", `--storage: "0G" is not a size: write a positive number and a unit, like 100G or +50G`, 28, ""},
		{"create nextcloud --storage NaNG", `--storage: "NaNG" is not a size: write a positive number and a unit, like 100G or +50G`, 28, ""},
		{"create nextcloud --storage 99999999T", `--storage: "99999999T" is not a size: write a positive number and a unit, like 100G or +50G`, 28, ""},
		{"create nextcloud --domain bad_host", `--domain: "bad_host" is not a hostname: use letters, digits, hyphens and dots, like cloud.example.org`, 27, ""},
		{"create nextcloud --data-dir srv", `--data-dir: "srv" is not an absolute path: start it with /`, 29, ""},
		{"create nextcloud --retention soon", `--retention: "soon" is not a duration: write it like 90s, 10m, 1h30m or 2d`, 30, ""},
		{"create nextcloud --trusted ,", `--trusted: "," is an empty list: separate items with commas, like node1,node2`, 28, ""},
		{"create nextcloud --sso=maybe", `--sso: "maybe" is not true or false`, 24, ""},
		{"create nextcloud --tier larg", `bad value "larg" for --tier`, 25, "large"},
		{"create nextcloud --tier huge", `bad value "huge" for --tier; one of small, medium, large`, 25, ""},
		{"create authentik --realm x --frontend-for nextclod", `unknown service "nextclod" for --frontend-for`, 43, "nextcloud"},
		{"create authentik --realm x --frontend-for mysql", `unknown service "mysql" for --frontend-for; services: authentik, grafana, jenkins, nextcloud`, 43, ""},
		{"create nextcloud --sso --sso", "--sso is given twice", 24, ""},
		{"create nextcloud --sso without sso", "--sso is given twice", 32, ""},
		{"create nextcloud in a in b", `the environment is given twice: "a" and "b"`, 23, ""},
		{"create nextcloud in a --env b", `the environment is given twice: "a" and "b"`, 23, ""},
		{"create nextcloud on a on b", "the nodes are given twice", 23, ""},
		{"create nextcloud in", "in needs an environment, like in staging", 20, ""},
		{"create nextcloud in st@ging", `"st@ging" is not an environment name: use letters, digits, - and _`, 21, ""},
		{"create nextcloud on", "on needs node names, like on node1,node2", 20, ""},
		{"create nextcloud on node1, node2", `"node1," is not a list of nodes: separate names with commas and no spaces, like node1,node2`, 21, ""},
		{"create nextcloud on no/de", `"no/de" is not a node name: use letters, digits, ., - and _`, 21, ""},
		{"create authentik", "create authentik needs --realm (string)", 17, ""},
		{"create authentik --domain a.org  ", "create authentik needs --realm (string)", 32, ""},
		{"create nextcloud sso", `unexpected "sso"; flags start with --`, 18, "--sso"},
		{"create nextcloud foo", `unexpected "foo"; usage: create SERVICE [flags] [in ENV] [on NODES]`, 18, ""},
		{"help create nextcloud", `unexpected "nextcloud"; usage: help [COMMAND | SERVICE]`, 13, ""},
		{"help nextclod", `no help for "nextclod"`, 6, "nextcloud"},
		{"help zzz", `no help for "zzz"; help alone lists the commands and services`, 6, ""},
		{"cancel xyz", `"xyz" is not a plan id: plan ids are 8 hex digits, like 7f3a9c21`, 8, ""},
		{"plan 7f3a9c2z", `unknown service "7f3a9c2z" and not a plan id (8 hex digits, like 7f3a9c21); services: authentik, grafana, jenkins, nextcloud`, 6, ""},
		{"plan 7f3a9c21 fill", `unexpected "fill"; usage: plan SERVICE [flags] | plan PLAN-ID [full]`, 15, ""},
		{"plan 7f3a9c21 full full", `unexpected "full"; usage: plan SERVICE [flags] | plan PLAN-ID [full]`, 20, ""},

		// operations
		{"resize lvm data", "resize lvm needs SIZE (size); usage: resize lvm NAME SIZE", 16, ""},
		{"resize lvm data   ", "resize lvm needs SIZE (size); usage: resize lvm NAME SIZE", 16, ""},
		{"deploy", "deploy needs a service; services: authentik, grafana, jenkins, nextcloud", 7, ""},
		{"resize lvm", "resize lvm needs NAME (string); usage: resize lvm NAME SIZE", 11, ""},
		{"resize lvm data +50G extra", `unexpected "extra"; usage: resize lvm NAME SIZE`, 22, ""},
		{"resize lvm data fifty", `SIZE: "fifty" is not a size: write a number and a unit (K, M, G, T, or GiB, GB, ...), like 100G or +50G`, 17, ""},
		{"resize lvn data +5G", `unknown resize target "lvn"`, 8, "lvm"},
		{"resize disk data +5G", `unknown resize target "disk"; resize works on: lvm`, 8, ""},
		{"resize", "resize needs a target: lvm", 7, ""},
		{"resize lvm data +5G --fs zfs", `bad value "zfs" for --fs`, 26, "xfs"},

		// quoting
		{`create authentik --realm "oops`, `unterminated quote: " is never closed`, 26, ""},
		{`create authentik --realm="oops`, `unterminated quote: " is never closed`, 26, ""},
		{`create "nextcloud`, `unterminated quote: " is never closed`, 8, ""},
		{`create nextcloud -- x`, "a flag needs a name after the dashes, like --sso", 18, ""},

		// columns count runes, not bytes
		{"🚀 create", `unknown command "🚀"; commands: create, destroy, update, status, drift, reconcile, adopt, plan, rollback, history, help, cancel, policy, locks, why, web, resize`, 1, ""},
		{"create 🚀🚀 --sso", `unknown service "🚀🚀"; services: authentik, grafana, jenkins, nextcloud`, 8, ""},
		{"crèate nextcloud", `unknown command "crèate"`, 1, "create"},
		{"@eos\u00a0crèate", `unknown command "crèate"`, 6, "create"},
		{"create nextcloud --ß", `unknown flag "--ß" for nextcloud; flags: --sso, --domain, --distributed-storage, --storage, --tier, --backup, --retention, --data-dir, --trusted, --env, --nodes`, 18, ""},
		{"create \u202enextcloud", `unknown service "\u202enextcloud"`, 8, "nextcloud"},
		{"create next\x00cloud", `unknown service "next\x00cloud"`, 8, "nextcloud"},

		// invalid text
		{"create \xffnextcloud", "the message is not valid UTF-8 (byte 0xff): send it as text", 8, ""},
		{"é\xc3", "the message is not valid UTF-8 (byte 0xc3): send it as text", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			in, err := p.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %s, want an error", tt.in, describe(in))
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse(%q) error %T %v, want *Error", tt.in, err, err)
			}
			if e.Message != tt.msg || e.Column != tt.col || e.Suggestion != tt.suggestion {
				t.Errorf("Parse(%q)\n got: %q col %d suggestion %q\nwant: %q col %d suggestion %q",
					tt.in, e.Message, e.Column, e.Suggestion, tt.msg, tt.col, tt.suggestion)
			}
			if e.Input != tt.in {
				t.Errorf("Input = %q, want the original text", e.Input)
			}
		})
	}
}

func TestParseTooLong(t *testing.T) {
	p := NewParser(testCatalog(t))
	tests := []struct {
		name, in string
		col      int
	}{
		{"ascii", "create nextcloud --domain " + strings.Repeat("a", MaxInputBytes), MaxInputBytes + 1},
		// 2-byte runes: the 4097th byte is the first byte of rune 2049.
		{"two-byte runes", strings.Repeat("é", MaxInputBytes), MaxInputBytes/2 + 1},
		// a 4-byte rune straddling the limit is the first that does not fit.
		{"straddling rune", strings.Repeat("a", MaxInputBytes-2) + "🚀", MaxInputBytes - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Parse(tt.in)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want *Error", err)
			}
			want := "message too long: " + itoa(int64(len(tt.in))) + " bytes, the limit is 4096"
			if e.Message != want || e.Column != tt.col {
				t.Errorf("got %q col %d, want %q col %d", e.Message, e.Column, want, tt.col)
			}
		})
	}
	if _, err := p.Parse("status " + strings.Repeat(" ", MaxInputBytes-7)); err != nil {
		t.Errorf("a message of exactly %d bytes is refused: %v", MaxInputBytes, err)
	}
}

func TestErrorText(t *testing.T) {
	_, err := NewParser(testCatalog(t)).Parse("@eos create nextclod --sso")
	if got, want := err.Error(), `unknown service "nextclod" — did you mean "nextcloud"?`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestIntentJSON(t *testing.T) {
	in, err := NewParser(testCatalog(t)).Parse("resize lvm data +50G --fs xfs on node1 in prod")
	if err != nil {
		t.Fatal(err)
	}
	b, err := in.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"verb":"resize","noun":"lvm","args":["data","+50G"],"flags":{"fs":"xfs"},"env":"prod","nodes":["node1"]}`
	if string(b) != want {
		t.Errorf("JSON\n got: %s\nwant: %s", b, want)
	}
}
