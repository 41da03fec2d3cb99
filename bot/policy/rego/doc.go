// Package rego is policy as code for Eos: the operator's Rego rules (OPA, embedded as a
// library) judged over one input document per plan, the whole cross-layer plan at once.
//
// # Writing rules
//
// Rules live in .rego files (Rego v1 syntax) under the folders the configuration names
// (policy_dirs). A package whose path starts with "eos" takes part; in it, three rule names
// decide, each a set of messages written by the policy author:
//
//	package eos.firewall
//
//	deny contains msg if {            # the plan cannot be approved
//		some rc in input.plan.terraform.resource_changes
//		rc.type == "eoslab_firewall"
//		"22" in rc.after.ports
//		input.request.environment == "production"
//		msg := sprintf("%s opens SSH to the world in production", [rc.address])
//	}
//
//	warn contains msg if { … }        # shown in the preview, changes nothing
//
//	require contains {"msg": msg, "approvers": ["group:sre"], "approvals": 1} if { … }
//
// A deny or warn element is a string, or an object with a "msg". A require element names who
// must also approve (the same entries as the approval policy: "@handle", "group:name",
// "platform:id") and how many of them; it joins the plan's other approval rules, and each must
// hold on its own.
//
// # What this package owns
//
// Loading and compiling the rules once (Load; a set that does not compile is refused with
// file:line), the set's SHA-256 (the proof of what judged a plan), converting an input
// document for OPA as rules read it (convert.go, lists.go) with indexes of each layer's changes
// (index.go), evaluating a
// prepared query against it under a time-out (Set.Judge), a big plan's packages side by side
// on the machine's cores (sidebyside.go), and naming each decision's rule by
// package, rule name, file and line. It fails closed: an evaluation error or a time-out is a
// deny that names it, and so is a built-in function's error (strict: OPA would otherwise treat
// it as undefined and let the plan through). Building the input document from a plan is the
// engine's business.
package rego
