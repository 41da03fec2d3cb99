package eos.public_ssh_test

import data.eos.public_ssh

firewall(env, action, rules_line) := {
	"request": {"environment": env},
	"plan": {"layers": {"terraform": {"changes": [{
		"unit": "bastion", "address": "eoslab_firewall.main", "action": action, "detail": "",
		"attrs": ["name = \"bastion\"", rules_line],
	}]}}},
}

open_22 := "rules = [{\"direction\":\"in\",\"port\":\"22\",\"protocol\":\"tcp\",\"source_ips\":[\"0.0.0.0/0\"]}]"

test_ssh_to_the_world_in_production_is_denied if {
	count(public_ssh.deny) == 1 with input as firewall("production", "create", open_22)
}

test_an_update_that_opens_it_is_denied if {
	line := "rules [{\"direction\":\"in\",\"port\":\"443\",\"protocol\":\"tcp\",\"source_ips\":[\"0.0.0.0/0\"]}] → [{\"direction\":\"in\",\"port\":\"20-30\",\"protocol\":\"tcp\",\"source_ips\":[\"::/0\"]}]"
	count(public_ssh.deny) == 1 with input as firewall("production", "update", line)
}

test_ssh_from_an_admin_network_is_allowed if {
	line := "rules = [{\"direction\":\"in\",\"port\":\"22\",\"protocol\":\"tcp\",\"source_ips\":[\"10.0.0.0/8\"]}]"
	count(public_ssh.deny) == 0 with input as firewall("production", "create", line)
}

test_other_environments_are_left_alone if {
	count(public_ssh.deny) == 0 with input as firewall("staging", "create", open_22)
}

test_a_destroyed_firewall_opens_nothing if {
	count(public_ssh.deny) == 0 with input as firewall("production", "delete", open_22)
}

test_rules_known_only_after_apply_are_not_guessed if {
	count(public_ssh.deny) == 0 with input as firewall("production", "create", "rules = (known after apply)")
}
