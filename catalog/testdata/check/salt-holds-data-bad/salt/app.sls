app-dir:
  file.directory:
    - name: /srv/{{ pillar["name"] }}
