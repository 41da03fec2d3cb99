package eos.salt_restart_test

import data.eos.salt_restart

restart(env, weekday, hour) := {
	"request": {"environment": env},
	"plan": {"layers": {"salt": {"changes": [{
		"address": "service.running webcfg-service (eos-demo-webcfg)", "action": "update",
		"forces": ["service eos-demo-webcfg would restart (watch: file /srv/webcfg/webcfg.conf)"],
	}]}}},
	"time": {"weekday": weekday, "hour": hour, "minute": 30, "zone": "UTC"},
}

test_a_restart_in_business_hours_warns if {
	some msg in salt_restart.warn with input as restart("production", "Wednesday", 10)
	msg == "service.running webcfg-service (eos-demo-webcfg): service eos-demo-webcfg would restart (watch: file /srv/webcfg/webcfg.conf), during business hours (Wednesday 10:30 UTC)"
}

test_after_hours_is_quiet if {
	count(salt_restart.warn) == 0 with input as restart("production", "Wednesday", 17)
}

test_weekends_are_quiet if {
	count(salt_restart.warn) == 0 with input as restart("production", "Saturday", 11)
}

test_other_environments_are_quiet if {
	count(salt_restart.warn) == 0 with input as restart("staging", "Wednesday", 10)
}
