# Helpers the example policies share: a layer's changes, a Terraform attribute's value after
# a change, business hours. Decides nothing (no deny, require or warn here).
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

# business_hours: Monday to Friday, 09:00 to 17:00 in the configured time zone.
business_hours if {
	not input.time.weekday in {"Saturday", "Sunday"}
	input.time.hour >= 9
	input.time.hour < 17
}
