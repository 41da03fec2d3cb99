package eos.capacity

require contains {"msg": msg, "approvers": ["group:capacity"], "approvals": 1} if {
	some g in input.plan.nomad.groups
	g.memory_mb > 8192
	msg := sprintf("group %s asks for %d MiB, more than 8 GiB", [g.name, g.memory_mb])
}
