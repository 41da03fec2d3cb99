package eos.memory_owner_test

import data.eos.memory_owner

memory_change(key, before, after) := {"plan": {"layers": {"nomad": {"changes": [{
	"address": "imgapp--production/web", "action": "update", "detail": "in-place update ×1",
	"job": "imgapp--production", "group": "web", "count": {"before": 1, "after": 1},
	"tasks": [object.union(
		{"name": "server", "memory_mb": {"before": 256, "after": 256}, "memory_max_mb": {"before": null, "after": null}},
		{key: {"before": before, "after": after}},
	)],
}]}}}}

test_above_the_limit_needs_the_owner if {
	some r in memory_owner.require with input as memory_change("memory_mb", 256, 9000)
	r.approvers == ["@carol"]
	r.approvals == 1
	r.msg == "imgapp--production/web: task server would get 9000 MiB of memory (MemoryMB), more than 8192 MiB: @carol, who owns capacity, must approve too"
}

test_a_new_task_above_the_limit_needs_the_owner if {
	count(memory_owner.require) == 1 with input as memory_change("memory_mb", null, 9000)
}

test_the_memory_max_counts_too if {
	count(memory_owner.require) == 1 with input as memory_change("memory_max_mb", null, 16384)
}

test_at_the_limit_needs_nobody_more if {
	count(memory_owner.require) == 0 with input as memory_change("memory_mb", 256, 8192)
}

test_memory_the_task_already_has_needs_nobody_more if {
	count(memory_owner.require) == 0 with input as memory_change("memory_mb", 9000, 9000)
}
