clean-cache:
  file.absent:
    - name: {{ pillar["dir"] }}
