# A plan that loses data outside the change window needs someone from group:sre too. The
# window is Tuesday and Thursday, 18:00 to 21:00, in the time zone Eos is configured with
# (input.time: weekday, hour, minute are local). A plan that loses data is one whose change
# deletes or replaces what the blueprint marks as holding data, in any layer.
package eos.change_window

window_days := {"Tuesday", "Thursday"}

window_from := 18

window_to := 21

in_window if {
	input.time.weekday in window_days
	input.time.hour >= window_from
	input.time.hour < window_to
}

require contains {"msg": msg, "approvers": ["group:sre"], "approvals": 1} if {
	input.risk.data_loss
	not in_window
	lost := [sprintf("%s %s", [c.unit, c.address]) | some l, _ in input.plan.layers; some c in data.eos.lib.losing_data(l)]
	msg := sprintf("%s in %s loses data (%s) outside the change window (Tuesday and Thursday 18:00–21:00 %s): someone from group:sre must approve too", [input.request.target, input.request.environment, concat(", ", lost), input.time.zone])
}
