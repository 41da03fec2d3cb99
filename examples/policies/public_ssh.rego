# No firewall in production opens SSH (port 22) to the whole internet.
#
# Reads eoslab_firewall resources (internal/eoslab: rules of direction, protocol, port or
# "from-to" range, source_ips) in the Terraform plan, created, updated or replaced: their
# rules after the change, as data (c.after.rules; nothing when Terraform learns them only
# while applying: "(known after apply)" is not a list). The conditions go from the one that
# rules out most to the one that rules out least, so most rules are left after one test.
package eos.public_ssh

world := {"0.0.0.0/0", "::/0"}

deny contains msg if {
	input.request.environment == "production"
	some c in data.eos.lib.resources("eoslab_firewall")
	c.action in {"create", "update", "replace"}
	some rule in c.after.rules
	opens_22(rule.port)
	some src in rule.source_ips
	src in world
	rule.direction == "in"
	rule.protocol == "tcp"
	msg := sprintf("%s: %s opens SSH (port 22) to %s in production: allow only your admin network (or a VPN) on port 22", [c.unit, c.address, src])
}

# opens_22: port 22, or a "from-to" range around it (the range is read only when the port is
# not "22" itself).
opens_22(port) if port == "22"
else if {
	[from, to] := split(port, "-")
	to_number(from) <= 22
	to_number(to) >= 22
}
