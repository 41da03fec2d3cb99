package salt

import (
	"bufio"
	"reflect"
	"strings"
	"testing"
)

func TestReadEvents(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // tag, then data, per event
	}{
		{"salt-api's shape", "retry: 400\n\ntag: salt/job/1/new\ndata: {\"tag\": \"salt/job/1/new\", \"data\": {\"jid\": \"1\"}}\n\n",
			[]string{"salt/job/1/new", `{"jid": "1"}`}},
		{"CRLF and comments", ": hello\r\ndata: {\"tag\":\"a\",\"data\":{}}\r\n\r\ndata: {\"tag\":\"b\",\"data\":1}\r\n\r\n",
			[]string{"a", "{}", "b", "1"}},
		{"an event cut off by the end of the stream is dropped", "data: {\"tag\":\"a\",\"data\":1}\n\ndata: {\"tag\":\"b\",\"data\":2}\n", []string{"a", "1"}},
		{"data over two lines", "data: {\"tag\": \"a\",\ndata: \"data\": [1]}\n\n", []string{"a", "[1]"}},
		{"unreadable and tagless events are skipped", "data: {nope\n\ndata: {\"data\": 1}\n\ndata: {\"tag\":\"c\",\"data\":2}\n\n", []string{"c", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := readEvents(bufio.NewReader(strings.NewReader(tt.in)), func(ev busEvent) bool {
				got = append(got, ev.Tag, string(ev.Data))
				return true
			})
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("readEvents = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	var n int
	_ = readEvents(bufio.NewReader(strings.NewReader("data: {\"tag\":\"a\"}\n\ndata: {\"tag\":\"b\"}\n\n")), func(busEvent) bool { n++; return false })
	if n != 1 {
		t.Errorf("readEvents went on after emit said stop (%d events)", n)
	}
}

func TestParseJobTag(t *testing.T) {
	tests := []struct {
		tag  string
		want jobTag
		ok   bool
	}{
		{"salt/job/20240101000000000001/prog/node1/2", jobTag{jid: "20240101000000000001", kind: "prog", minion: "node1", run: 2}, true},
		{"salt/job/20240101000000000001/ret/web-1.example.org", jobTag{jid: "20240101000000000001", kind: "ret", minion: "web-1.example.org"}, true},
		{"salt/job/20240101000000000001/new", jobTag{}, false},
		{"salt/job/20240101000000000001/prog/node1/x", jobTag{}, false},
		{"salt/job/20240101000000000001/prog/node1", jobTag{}, false},
		{"salt/auth", jobTag{}, false},
	}
	for _, tt := range tests {
		got, ok := parseJobTag(tt.tag)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("parseJobTag(%q) = %+v, %v; want %+v, %v", tt.tag, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseProg(t *testing.T) {
	s, err := parseProg([]byte(`{"cmd": "_minion_event", "id": "node1", "data": {"len": 3, "ret": {"__id__": "fs-nextcloud",
		"name": "/dev/vg0/data-nextcloud", "result": false, "changes": {}, "comment": ["Failed to format", "mkfs.xfs not found"],
		"__run_num__": 1, "__sls__": "eos.lvm_1a2b", "duration": 12.5}}}`))
	if err != nil {
		t.Fatalf("parseProg: %v", err)
	}
	if s.display() != "fs-nextcloud (/dev/vg0/data-nextcloud)" || !s.failed() || s.Changed || s.RunNum != 1 || s.Comment != "Failed to format; mkfs.xfs not found" {
		t.Errorf("parseProg = %+v (%s)", s, s.display())
	}
	if _, err := parseProg([]byte(`{"data": {"ret": {"result": true}}}`)); err == nil {
		t.Error("a progress event naming no state was accepted")
	}
}
