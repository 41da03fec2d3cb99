# A Nomad task that would get more memory than the limit needs the capacity owner's approval
# too, on top of the plan's other rules. Change the two values below to yours.
#
# Reads each Nomad change's tasks: `memory_mb` and `memory_max_mb`, before and after (MB; null
# where the task has none, before a new task).
package eos.memory_owner

limit_mb := 8192

owner := "@carol"

# The settings read, with the name Nomad's job gives each.
settings := {"memory_mb": "MemoryMB", "memory_max_mb": "MemoryMaxMB"}

require contains {"msg": msg, "approvers": [owner], "approvals": 1} if {
	some c in data.eos.lib.changes("nomad")
	some t in c.tasks
	some key, name in settings
	mb := t[key].after
	is_number(mb)
	mb > limit_mb
	mb != t[key].before
	msg := sprintf("%s: task %s would get %d MiB of memory (%s), more than %d MiB: %s, who owns capacity, must approve too", [c.address, t.name, mb, name, limit_mb, owner])
}
