"""Render a Salt state the way Salt's jinja renderer would, then parse it as YAML.

Reads {"template": ..., "pillar": {...}, "opts": {...}} on stdin and prints the parsed state as
JSON. Only what the shipped states use is provided: salt['pillar.get'], salt['config.get'] (of
the minion's configuration, "opts") and the yaml_dquote and quote filters (both of which Salt
ships).
"""
import json
import shlex
import sys

import jinja2
import yaml

request = json.load(sys.stdin)
pillar = request["pillar"]
opts = request.get("opts") or {}


def pillar_get(key, default=None):
    return pillar.get(key, default)


def config_get(key, default=""):
    return opts.get(key, default)


env = jinja2.Environment(undefined=jinja2.StrictUndefined)
env.filters["yaml_dquote"] = lambda s: json.dumps(str(s))
env.filters["quote"] = lambda s: shlex.quote(str(s))
text = env.from_string(request["template"]).render(salt={"pillar.get": pillar_get, "config.get": config_get}, pillar=pillar)
json.dump(yaml.safe_load(text), sys.stdout)
