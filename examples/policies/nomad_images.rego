# Every container image a Nomad plan sets is pinned: a tag other than "latest", or a digest.
# "nginx", "nginx:latest" and "registry:5000/app" are not pinned; "nginx:1.27.3" and
# "nginx@sha256:…" are.
#
# Reads each Nomad change's tasks: `image`, before and after (null where a task has none,
# before a new task, job or group). An image the plan leaves as it is is not judged again.
package eos.nomad_images

deny contains msg if {
	some c in data.eos.lib.changes("nomad")
	some t in c.tasks
	image := t.image.after
	is_string(image)
	image != t.image.before
	not pinned(image)
	msg := sprintf("%s: task %s would run %s, which is not pinned: name a version tag (%s:1.2.3) or a digest, never latest", [c.address, t.name, image, repository(image)])
}

pinned(image) if contains(image, "@sha256:")

pinned(image) if {
	not contains(image, "@")
	tag := tag_of(image)
	tag != "latest"
}

# tag_of is the tag after the last ":" of the last path segment; undefined without one (a ":"
# before a "/" is a registry's port).
tag_of(image) := tag if {
	parts := split(image, "/")
	last := parts[count(parts) - 1]
	contains(last, ":")
	tag := split(last, ":")[1]
	tag != ""
}

repository(image) := split(image, ":")[0] if not contains(split(image, "/")[count(split(image, "/")) - 1], "@")

repository(image) := split(image, "@")[0] if contains(split(image, "/")[count(split(image, "/")) - 1], "@")
