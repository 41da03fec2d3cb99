# A Salt state that would restart a service in production during business hours (Monday to
# Friday, 09:00 to 17:00 in the configured time zone) is worth a warning: users notice.
#
# Reads the Salt plan's disruption marks (forces): "service nginx would restart (watch: …)".
package eos.salt_restart

warn contains msg if {
	input.request.environment == "production"
	data.eos.lib.business_hours
	some c in data.eos.lib.changes("salt")
	some f in c.forces
	contains(f, "would restart")
	msg := sprintf("%s: %s, during business hours (%s %02d:%02d %s)", [c.address, f, input.time.weekday, input.time.hour, input.time.minute, input.time.zone])
}
