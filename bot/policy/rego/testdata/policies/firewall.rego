package eos.firewall

deny contains msg if {
	some rc in input.plan.terraform.resource_changes
	rc.type == "eoslab_firewall"
	"22" in rc.after.ports
	input.request.environment == "production"
	msg := sprintf("%s opens SSH to the world in production", [rc.address])
}

warn contains "a firewall changes" if {
	some rc in input.plan.terraform.resource_changes
	rc.type == "eoslab_firewall"
}
