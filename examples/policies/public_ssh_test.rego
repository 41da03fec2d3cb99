package eos.public_ssh_test

import data.eos.public_ssh

# firewall is a plan with one firewall change whose rules after it are rules (as the input
# document carries them: data in `after`, and the preview's line in `attrs`).
firewall(env, action, rules) := {
	"request": {"environment": env},
	"plan": {"layers": {"terraform": {"changes": [{
		"unit": "bastion", "address": "eoslab_firewall.main", "action": action, "detail": "",
		"attrs": ["name = \"bastion\"", sprintf("rules = %s", [line(rules)])],
		"before": {}, "after": {"name": "bastion", "rules": rules},
	}]}}},
}

line(rules) := json.marshal(rules) if is_array(rules)
line(rules) := rules if is_string(rules)

rule(port, sources) := {"direction": "in", "port": port, "protocol": "tcp", "source_ips": sources}

open_22 := [rule("22", ["0.0.0.0/0"])]

test_ssh_to_the_world_in_production_is_denied if {
	count(public_ssh.deny) == 1 with input as firewall("production", "create", open_22)
}

test_an_update_that_opens_it_is_denied if {
	doc := json.patch(firewall("production", "update", [rule("20-30", ["::/0"])]), [
		{"op": "replace", "path": "/plan/layers/terraform/changes/0/before", "value": {"rules": [rule("443", ["0.0.0.0/0"])]}},
	])
	count(public_ssh.deny) == 1 with input as doc
}

test_ssh_from_an_admin_network_is_allowed if {
	count(public_ssh.deny) == 0 with input as firewall("production", "create", [rule("22", ["10.0.0.0/8"])])
}

test_a_range_without_22_is_allowed if {
	count(public_ssh.deny) == 0 with input as firewall("production", "create", [rule("23-30", ["0.0.0.0/0"])])
}

test_other_environments_are_left_alone if {
	count(public_ssh.deny) == 0 with input as firewall("staging", "create", open_22)
}

test_a_destroyed_firewall_opens_nothing if {
	count(public_ssh.deny) == 0 with input as firewall("production", "delete", open_22)
}

test_rules_known_only_after_apply_are_not_guessed if {
	count(public_ssh.deny) == 0 with input as firewall("production", "create", "(known after apply)")
}
