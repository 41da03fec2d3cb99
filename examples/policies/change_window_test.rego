package eos.change_window_test

import data.eos.change_window

plan(data_loss, weekday, hour) := {
	"request": {"target": "nextcloud", "environment": "production"},
	"risk": {"data_loss": data_loss},
	"plan": {"layers": {"terraform": {"changes": [{"unit": "nextcloud", "address": "eoslab_volume.data", "action": "delete", "data_loss": data_loss}]}}},
	"time": {"weekday": weekday, "hour": hour, "zone": "Europe/Berlin"},
}

test_data_loss_outside_the_window_needs_sre if {
	some r in change_window.require with input as plan(true, "Monday", 10)
	r.approvers == ["group:sre"]
	contains(r.msg, "eoslab_volume.data")
}

test_data_loss_in_the_window_needs_nobody_more if {
	count(change_window.require) == 0 with input as plan(true, "Thursday", 19)
}

test_the_window_ends_at_21 if {
	count(change_window.require) == 1 with input as plan(true, "Tuesday", 21)
}

test_no_data_loss_needs_nobody_more if {
	count(change_window.require) == 0 with input as plan(false, "Sunday", 3)
}
