package eos.nomad_images_test

import data.eos.nomad_images

image_change(before, after) := {"plan": {"layers": {"nomad": {"changes": [{
	"address": "imgapp--production/web", "action": "replace", "detail": "destructive update ×1",
	"job": "imgapp--production", "group": "web", "count": {"before": 1, "after": 1},
	"tasks": [{"name": "server", "action": "update", "image": {"before": before, "after": after}}],
}]}}}}

test_latest_is_denied if {
	count(nomad_images.deny) == 1 with input as image_change("nginx:1.25", "nginx:latest")
}

test_a_new_task_on_latest_is_denied if {
	count(nomad_images.deny) == 1 with input as image_change(null, "nginx:latest")
}

test_a_missing_tag_is_denied if {
	count(nomad_images.deny) == 1 with input as image_change("nginx:1.25", "nginx")
}

test_a_registry_port_is_not_a_tag if {
	count(nomad_images.deny) == 1 with input as image_change("nginx:1.25", "registry.local:5000/team/app")
}

test_a_version_tag_is_allowed if {
	count(nomad_images.deny) == 0 with input as image_change("nginx:1.25", "registry.local:5000/team/app:2.4.1")
}

test_a_digest_is_allowed if {
	count(nomad_images.deny) == 0 with input as image_change("nginx:1.25", "nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31")
}

test_an_image_the_plan_leaves_alone_is_not_judged_again if {
	count(nomad_images.deny) == 0 with input as image_change("nginx:latest", "nginx:latest")
}

test_a_task_without_an_image_is_left_alone if {
	count(nomad_images.deny) == 0 with input as image_change(null, null)
}

test_the_message_says_what_to_do if {
	some msg in nomad_images.deny with input as image_change("nginx:1.25", "nginx:latest")
	msg == "imgapp--production/web: task server would run nginx:latest, which is not pinned: name a version tag (nginx:1.2.3) or a digest, never latest"
}
