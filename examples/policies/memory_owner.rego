# A Nomad task that would get more memory than the limit needs the capacity owner's approval
# too, on top of the plan's other rules. Change the two values below to yours.
#
# Reads the Nomad job diff's lines: `task server Resources.MemoryMB "256" → "9000"`.
package eos.memory_owner

limit_mb := 8192

owner := "@carol"

require contains {"msg": msg, "approvers": [owner], "approvals": 1} if {
	some c in data.eos.lib.changes("nomad")
	some line in data.eos.lib.lines(c)
	some m in regex.find_all_string_submatch_n(`^task (\S+) Resources\.(MemoryMB|MemoryMaxMB) .* → "([0-9]+)"$`, line, 1)
	mb := to_number(m[3])
	mb > limit_mb
	msg := sprintf("%s: task %s would get %d MiB of memory (%s), more than %d MiB: %s, who owns capacity, must approve too", [c.address, m[1], mb, m[2], limit_mb, owner])
}
