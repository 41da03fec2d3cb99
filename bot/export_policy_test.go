package bot

import (
	"context"
)

// PolicyInputOf is the input document the policy set in force judges plan id by, as
// judgeCode builds it (for the tests of package bot_test).
func (e *Engine) PolicyInputOf(ctx context.Context, id string) (map[string]any, error) {
	p, err := e.st.Plan(ctx, id)
	if err != nil {
		return nil, err
	}
	e.code.mu.Lock()
	set, zone := e.code.set, e.code.zone
	e.code.mu.Unlock()
	var groups []string
	if set != nil {
		groups = set.Groups()
	}
	return e.inputOf(ctx, p, groups, zone), nil
}
