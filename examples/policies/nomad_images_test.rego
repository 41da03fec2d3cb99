package eos.nomad_images_test

import data.eos.nomad_images

image_change(new) := {"plan": {"layers": {"nomad": {"changes": [{
	"address": "imgapp--production/web", "action": "replace", "detail": "destructive update ×1",
	"attrs": ["destructive update ×1", sprintf("task server Config.image \"nginx:1.25\" → %q", [new])],
}]}}}}

test_latest_is_denied if {
	count(nomad_images.deny) == 1 with input as image_change("nginx:latest")
}

test_a_missing_tag_is_denied if {
	count(nomad_images.deny) == 1 with input as image_change("nginx")
}

test_a_registry_port_is_not_a_tag if {
	count(nomad_images.deny) == 1 with input as image_change("registry.local:5000/team/app")
}

test_a_version_tag_is_allowed if {
	count(nomad_images.deny) == 0 with input as image_change("registry.local:5000/team/app:2.4.1")
}

test_a_digest_is_allowed if {
	count(nomad_images.deny) == 0 with input as image_change("nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31")
}

test_the_message_says_what_to_do if {
	some msg in nomad_images.deny with input as image_change("nginx:latest")
	msg == "imgapp--production/web: task server would run nginx:latest, which is not pinned: name a version tag (nginx:1.2.3) or a digest, never latest"
}
