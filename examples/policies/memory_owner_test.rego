package eos.memory_owner_test

import data.eos.memory_owner

memory_change(field, new) := {"plan": {"layers": {"nomad": {"changes": [{
	"address": "imgapp--production/web", "action": "update", "detail": "in-place update ×1",
	"attrs": ["in-place update ×1", sprintf("task server Resources.%s \"256\" → \"%d\"", [field, new])],
}]}}}}

test_above_the_limit_needs_the_owner if {
	some r in memory_owner.require with input as memory_change("MemoryMB", 9000)
	r.approvers == ["@carol"]
	r.approvals == 1
}

test_the_memory_max_counts_too if {
	count(memory_owner.require) == 1 with input as memory_change("MemoryMaxMB", 16384)
}

test_at_the_limit_needs_nobody_more if {
	count(memory_owner.require) == 0 with input as memory_change("MemoryMB", 8192)
}
