# Every container image a Nomad plan sets is pinned: a tag other than "latest", or a digest.
# "nginx", "nginx:latest" and "registry:5000/app" are not pinned; "nginx:1.27.3" and
# "nginx@sha256:…" are.
#
# Reads the Nomad job diff's lines: `task server Config.image "nginx:1.25" → "nginx:latest"` on an
# update, `task server Config.image (none) → "nginx:latest"` for a new job, group or task.
package eos.nomad_images

deny contains msg if {
	some c in data.eos.lib.changes("nomad")
	some line in data.eos.lib.lines(c)
	[task, image] := task_image(line)
	not pinned(image)
	msg := sprintf("%s: task %s would run %s, which is not pinned: name a version tag (%s:1.2.3) or a digest, never latest", [c.address, task, image, repository(image)])
}

task_image(line) := [m[1], json.unmarshal(m[2])] if {
	some m in regex.find_all_string_submatch_n(`^task (\S+) Config\.image .* → ("[^"]*")$`, line, 1)
	json.is_valid(m[2])
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
