package salt

import (
	"context"
	"strings"
	"testing"
	"time"
)

// Against the real master: a plan whose targets list a minion the master has no key for fails
// by that minion's name at once, from the test.ping, without a dry run waiting for a return
// that never comes.
func TestRealListedMinionWithoutAKeyFailsThePlanAtOnce(t *testing.T) {
	r := needSalt(t)
	const unknown = "eos-minion-never-started"
	l := r.layer(t, nil, func(c *Config) {
		c.Targets = []string{r.minion, unknown}
		c.Timeout = 10 * time.Minute
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, err := l.Plan(ctx, fileSpec("listed", r.dir(t), 1, ""))
	if err == nil || !strings.Contains(err.Error(), "minion "+unknown+" is not known to the Salt master") {
		t.Fatalf("Plan = %v, want %s named as not known", err, unknown)
	}
	if ctx.Err() != nil {
		t.Fatal("the plan waited for a dry run's missing return instead of failing with the test.ping")
	}
}
