package salt

import (
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkRealDryRun measures one unit's plan against the real master and minion that
// scripts/testenv/salt.sh starts: the test.ping, the state file's write, the event stream, the
// test-mode job and its return. It is the slowest piece of a preview (issue #29). The unit
// targets the test minion as a list, as the layer's targets are in bot/enginetest's benchmarks.
func BenchmarkRealDryRun(b *testing.B) {
	url := os.Getenv("EOS_TEST_SALT_URL")
	if url == "" {
		b.Skip("EOS_TEST_SALT_URL not set; scripts/testenv/salt.sh start DIR writes DIR/env")
	}
	l, err := New(Config{URL: url, Username: os.Getenv("EOS_TEST_SALT_USER"), Password: os.Getenv("EOS_TEST_SALT_PASSWORD"),
		EAuth: os.Getenv("EOS_TEST_SALT_EAUTH"), Targets: []string{os.Getenv("EOS_TEST_SALT_MINION")}, Timeout: 2 * time.Minute,
		PollInterval: 200 * time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	dir, err := os.MkdirTemp(os.Getenv("EOS_TEST_SALT_DATA"), "b-")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(dir) })
	spec := fileSpec("dryrunbench", dir, 1, "")
	if _, err := l.Plan(context.Background(), spec); err != nil { // logged in, state file known
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Plan(context.Background(), spec); err != nil {
			b.Fatal(err)
		}
	}
}
