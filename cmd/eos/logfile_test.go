package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With log_file (EOS_LOG_FILE, which make run sets) the log goes to that file, named on
// stderr once, and nothing of it reaches stderr, where the console's chat is.
func TestLogFileKeepsTheLogOutOfTheChat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "eos.log")
	t.Setenv("EOS_LOG_FILE", path)
	cfg, err := loadConfig("")
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	w, closeLog, err := logWriter(cfg, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	log, err := newLogger(w, "info")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("eos serving", "store", "bbolt")
	closeLog()
	if got := stderr.String(); got != "logs: "+path+"\n" {
		t.Errorf("stderr = %q, want only where the logs are", got)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `msg="eos serving" store=bbolt`) {
		t.Errorf("log file = %q, %v", b, err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode = %v, %v; want 0600", fi.Mode(), err)
	}
}
