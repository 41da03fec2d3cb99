# A Salt state that would restart a service in production during business hours (Monday to
# Friday, 09:00 to 17:00 in the configured time zone) is worth a warning: users notice.
#
# Reads each Salt change's disruption marks: `restart` ("restart", "reload", "stop" or ""),
# `service` (the service's name; "" for a command that restarts one) and `triggers` (the
# changes that fire it: "watch: file /etc/nginx/nginx.conf").
package eos.salt_restart

warn contains msg if {
	input.request.environment == "production"
	data.eos.lib.business_hours
	some c in data.eos.lib.restarting("restart")
	msg := sprintf("%s: %s%s, during business hours (%s %02d:%02d %s)", [c.address, restarted(c), because(c), input.time.weekday, input.time.hour, input.time.minute, input.time.zone])
}

restarted(c) := sprintf("service %s would restart", [c.service]) if c.service != ""

restarted(c) := sprintf("%s %s would restart a service", [c.function, c.name]) if c.service == ""

because(c) := sprintf(" (%s)", [concat(", ", c.triggers)]) if count(c.triggers) > 0

because(c) := "" if count(c.triggers) == 0
