# Helpers the example policies share: a layer's changes (all, a Terraform resource type's,
# those that lose data, Salt's that restart), a Terraform attribute's value after a change,
# business hours. Decides nothing (no deny, require or warn here).
package eos.lib

# lines(c) are change c's attribute lines: its attrs, or, when the layer said everything in
# the detail, the detail's parts. A create's line is `name = VALUE`, an update's
# `name BEFORE → AFTER`; values are JSON, or "(known after apply)", "(sensitive)".
lines(c) := c.attrs if count(c.attrs) > 0

lines(c) := split(c.detail, ", ") if {
	count(c.attrs) == 0
	c.detail != ""
}

# after(c, name) is the value attribute name has after Terraform change c; undefined when
# Terraform learns it only while applying, when it is sensitive, or when c does not set it.
# Terraform's changes carry their values as data (c.after), read from their lines (only
# `else`, so not evaluated when the data is there) when a document has none. Salt's and
# Nomad's changes carry fields of their own (c.function, c.restart, c.tasks[_].image.after,
# …): read those, not lines.
after(c, name) := v if {
	v := c.after[name]
	not v in {"(known after apply)", "(sensitive)"}
} else := json.unmarshal(v) if {
	not c.after[name]
	some line in lines(c)
	startswith(line, concat("", [name, " "]))
	v := value_after(substring(line, count(name) + 1, -1))
	json.is_valid(v)
}

# value_after reads what follows an attribute's name: "= VALUE" (a create) or
# "BEFORE → AFTER" (an update).
value_after(rest) := substring(rest, 2, -1) if startswith(rest, "= ")

value_after(rest) := trim_space(parts[1]) if {
	not startswith(rest, "= ")
	parts := split(rest, " → ")
	count(parts) == 2
}

# changes(layer) are the changes a layer's plan makes ("terraform", "salt", "nomad").
changes(layer) := input.plan.layers[layer].changes

# The helpers below read the indexes Eos adds to each layer when it judges (by_type,
# losing_data, by_restart: the same changes, grouped), so a rule about a few changes of a big
# plan visits only those. A document without them (a unit test's `with input as`) gives the
# same changes by reading them all.

# resources(type) are the Terraform changes to resources of type ("eoslab_firewall"),
# modules' included, in plan order.
resources(type) := object.get(input.plan.layers.terraform.by_type, type, []) if {
	input.plan.layers.terraform.by_type
} else := [c |
	some c in changes("terraform")
	[[_, t]] := regex.find_all_string_submatch_n(`^(?:module\.[^.]+\.)*((?:data\.)?[^.]+)\.`, c.address, 1)
	t == type
]

# losing_data(layer) are the changes of a layer that lose data, in plan order.
losing_data(layer) := input.plan.layers[layer].losing_data if {
	input.plan.layers[layer].losing_data
} else := [c | some c in changes(layer); c.data_loss]

# restarting(mark) are the Salt changes with disruption mark ("restart", "reload", "stop").
restarting(mark) := object.get(input.plan.layers.salt.by_restart, mark, []) if {
	input.plan.layers.salt.by_restart
} else := [c | some c in changes("salt"); c.restart == mark]

# business_hours: Monday to Friday, 09:00 to 17:00 in the configured time zone.
business_hours if {
	not input.time.weekday in {"Saturday", "Sunday"}
	input.time.hour >= 9
	input.time.hour < 17
}
