package eos.salt_restart_test

import data.eos.salt_restart

state(env, weekday, hour, restart) := {
	"request": {"environment": env},
	"plan": {"layers": {"salt": {"changes": [{
		"address": "eos-minion: service.running webcfg-service (eos-demo-webcfg)", "action": "update",
		"minion": "eos-minion", "id": "webcfg-service", "function": "service.running", "name": "eos-demo-webcfg",
		"restart": restart, "service": "eos-demo-webcfg", "triggers": ["watch: file /srv/webcfg/webcfg.conf"],
	}]}}},
	"time": {"weekday": weekday, "hour": hour, "minute": 30, "zone": "UTC"},
}

restart(env, weekday, hour) := state(env, weekday, hour, "restart")

test_a_restart_in_business_hours_warns if {
	some msg in salt_restart.warn with input as restart("production", "Wednesday", 10)
	msg == "eos-minion: service.running webcfg-service (eos-demo-webcfg): service eos-demo-webcfg would restart (watch: file /srv/webcfg/webcfg.conf), during business hours (Wednesday 10:30 UTC)"
}

test_a_command_that_restarts_warns if {
	doc := json.patch(restart("production", "Monday", 9), [
		{"op": "replace", "path": "/plan/layers/salt/changes/0/service", "value": ""},
		{"op": "replace", "path": "/plan/layers/salt/changes/0/function", "value": "cmd.run"},
		{"op": "replace", "path": "/plan/layers/salt/changes/0/name", "value": "systemctl restart nginx"},
		{"op": "replace", "path": "/plan/layers/salt/changes/0/triggers", "value": []},
	])
	some msg in salt_restart.warn with input as doc
	contains(msg, ": cmd.run systemctl restart nginx would restart a service, during business hours")
}

test_a_reload_is_quiet if {
	count(salt_restart.warn) == 0 with input as state("production", "Wednesday", 10, "reload")
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
