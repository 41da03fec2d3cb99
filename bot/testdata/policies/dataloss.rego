package eos.dataloss

# Destroying data in production needs someone from group:sre.
require contains {"msg": msg, "approvers": ["group:sre"], "approvals": 1} if {
	input.request.environment == "production"
	input.risk.data_loss
	msg := sprintf("%s loses data in production", [input.request.target])
}

# Nobody outside group:sre may ask to purge data.
deny contains "only group:sre may purge data" if {
	input.request.purge_data
	not "group:sre" in input.request.requester.groups
}

warn contains sprintf("%d replacements", [input.risk.replaces]) if input.risk.replaces > 0
